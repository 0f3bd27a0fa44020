#!/usr/bin/env node
// `npm run start:serverless -- --port N`: the conformance fixture as a serverless function
// (dist/serverless.js, a fetch-handler default export) on a local serverless platform
// (scripts/serverless-host.mjs) on 127.0.0.1:N (0: a free port): a router in front of three
// instances, requests round-robin, each instance recycled (killed, a cold one started) after 10
// requests on average (`--recycle-after N`, drawn per instance), so one session's requests meet
// different and cold instances; `--trace` logs each request's instance and timing. Legacy sessions live in
// Redis: REDIS_URL, or else a redis-server of its own on a free loopback port (Debian's; bash
// scripts/system-packages.sh installs it). Prints `listening on http://127.0.0.1:N/mcp` on stderr
// like `npm start`, and on SIGTERM/SIGINT what the platform did (requests, instances, cold hits).
// (`--http` is accepted and ignored: a function serves HTTP only.)
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startServerlessHost } from '../../../scripts/serverless-host.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
};
const port = option('--port', 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(
    `--port ${argv[argv.indexOf('--port') + 1]} is not a port; give --port N with N from 0 to 65535`,
  );
  process.exit(2);
}
const entry = fileURLToPath(new URL('../dist/serverless.js', import.meta.url));
if (!existsSync(entry)) {
  console.error(`${entry} is missing; build first: npx tsc -b`);
  process.exit(1);
}

let redis;
let redisUrl = process.env.REDIS_URL;
if (!redisUrl) {
  let bin;
  try {
    bin = execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim();
  } catch {
    console.error(
      'REDIS_URL is unset and redis-server is not installed: the function keeps legacy sessions in Redis. Fix: set REDIS_URL=redis://…, or install redis-server (bash scripts/system-packages.sh)',
    );
    process.exit(1);
  }
  const redisPort = await new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => done(free));
    });
  });
  redis = spawn(
    bin,
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  process.once('exit', () => redis.kill('SIGKILL'));
  await new Promise((done, fail) => {
    let out = '';
    redis.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      if (/Ready to accept/.test(out)) done();
    });
    redis.once('exit', (code) => fail(new Error(`redis-server exited (${code}):\n${out}`)));
  });
  redisUrl = `redis://127.0.0.1:${redisPort}`;
}

const host = await startServerlessHost({
  module: entry,
  port,
  instances: option('--instances', 3),
  recycleAfter: option('--recycle-after', 10),
  trace: argv.includes('--trace'),
  env: { REDIS_URL: redisUrl },
  log: (line) => console.error(line),
});
console.error(
  `mcp-fw-conformance (serverless function, Redis ${redisUrl}) listening on ${host.origin}/mcp`,
);
for (const signal of ['SIGTERM', 'SIGINT'])
  process.once(signal, async () => {
    console.error(`serverless host: ${host.summary()}`);
    await host.stop();
    redis?.kill('SIGKILL');
    process.exit(0);
  });
