import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Removes the compiled output of dev and run processes that no longer exist (killed runs). */
export function removeStaleCaches(root: string): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^(?:dev|run)-(\d+)$/.exec(name)?.[1]);
    if (pid && !alive(pid)) rmSync(join(root, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
