#!/usr/bin/env node
// The bin npm links: committed, so it exists on a fresh clone before `tsc -b` has built dist/.
// Without dist/ (inside the monorepo) it runs the sources through tsx.
import { existsSync } from 'node:fs';

const dist = new URL('../dist/cli.js', import.meta.url);
let cli = dist;
if (!existsSync(dist)) {
  const { register } = await import('tsx/esm/api');
  register();
  cli = new URL('../src/cli.ts', import.meta.url);
}
const { main } = await import(cli.href);
process.exitCode = main(process.argv.slice(2));
