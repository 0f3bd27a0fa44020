// The benchmark's stdio servers bundled as `mcp-fw build --bundle` bundles a project: one
// CommonJS file each, started by a launcher through a V8 code cache. The SDK's server gets the
// same treatment, so the bundled rows compare like with like.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleServer } from '@mcp-fw/cli/bundle';

/** Bundles `bench/dist/<name>-server.js` for each server; returns the launchers, by server. */
export async function bundledServers<K extends string>(
  names: readonly K[],
): Promise<Record<K, string>> {
  const outDir = fileURLToPath(new URL('./bundled/', import.meta.url));
  // A fresh directory: the first spawn of each then writes its code cache, as after a deploy.
  rmSync(outDir, { recursive: true, force: true });
  const launchers = {} as Record<K, string>;
  for (const name of names) {
    const entry = fileURLToPath(new URL(`./${name}-server.js`, import.meta.url));
    launchers[name] = (await bundleServer({ entry, outDir, name: `${name}-server` })).launcherFile;
  }
  return launchers;
}
