import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { patience } from '../../../test-support/patience.ts';

const FIXTURE = fileURLToPath(new URL('fixtures/plain/', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/mcp-fw-schemas.js', import.meta.url));

let child: ChildProcess | undefined;
let dir: string | undefined;
afterEach(() => {
  child?.kill();
  child = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + patience(20_000);
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('mcp-fw-schemas --watch rewrites the module when a signature or its JSDoc changes', async () => {
  dir = fileURLToPath(new URL(`../.cache/watch-${process.pid}/`, import.meta.url));
  rmSync(dir, { recursive: true, force: true });
  cpSync(FIXTURE, dir, { recursive: true, filter: (src) => !src.includes('/dist') });
  const out = `${dir}src/schemas.gen.ts`;
  rmSync(out);
  let stderr = '';
  child = spawn(process.execPath, [BIN, '--watch', '-p', `${dir}tsconfig.json`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  await until(() => stderr.includes('6 members →'), 'the first extraction');
  expect(readFileSync(out, 'utf8')).toContain('"Convert a distance."');

  const trips = `${dir}src/trips.ts`;
  writeFileSync(
    trips,
    readFileSync(trips, 'utf8').replace('Convert a distance.', 'Convert kilometres to miles.'),
  );
  await until(
    () => existsSync(out) && readFileSync(out, 'utf8').includes('"Convert kilometres to miles."'),
    'the rewrite',
  );
  expect(stderr.match(/6 members →/g)).toHaveLength(2);
  // Its own output changing does not start another round.
  await new Promise((r) => setTimeout(r, 300));
  expect(stderr.match(/6 members →/g)).toHaveLength(2);
});
