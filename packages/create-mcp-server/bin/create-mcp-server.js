#!/usr/bin/env node
// The bin npm links: committed, so it exists on a fresh clone before `tsc -b` has built dist/.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    'create-mcp-server: dist/ is missing; build it first (npx tsc -b at the repository root)\n',
  );
  process.exit(1);
}
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));
