import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patience } from '../../../test-support/patience.ts';
import {
  Balancer,
  HAPROXY,
  NodeProcess,
  REDIS_SERVER,
  REPO_ROOT,
  RedisProcess,
} from './support/processes.ts';

// The deployment guide as a newcomer follows it with a project made from the `http` template:
// three processes of the template's built entry (templates/http/dist/main.js) started with `--redis <url>` on one
// redis-server, behind HAProxy running the guide's haproxy.cfg — the file as the page shows it,
// with only its addresses made local (the frontend's bind, the three servers' address:port) and
// an admin socket added to read what the health checks found.

const GUIDE = join(REPO_ROOT, 'docs/guide/deployment.md');
const MAIN = join(REPO_ROOT, 'templates/http/dist/main.js');
const MARKER = '<!-- tested: packages/redis/test/deployment-guide.test.ts';

/** The guide's haproxy.cfg: the first fenced block after the marker that names this test. */
function guideConfig(): string {
  const page = readFileSync(GUIDE, 'utf8');
  const at = page.indexOf(MARKER);
  if (at < 0) throw new Error(`${GUIDE} has no "${MARKER}" before its haproxy.cfg`);
  const fence = /```[^\n]*\n([\s\S]*?)```/.exec(page.slice(at));
  if (!fence) throw new Error(`no fenced block after "${MARKER}" in ${GUIDE}`);
  return fence[1];
}

/** The guide's file with its frontend on 127.0.0.1:`port` and its servers at `ports`. */
function onLoopback(config: string, port: number, ports: readonly number[], socket: string) {
  const binds = config.match(/^\s*bind \S+$/gm) ?? [];
  const servers = config.match(/^\s*server \w+ [\d.]+:\d+ check\b.*$/gm) ?? [];
  // Strict, so a guide that changes shape fails here rather than running something else.
  expect(binds, 'the guide binds one frontend').toHaveLength(1);
  expect(servers, 'the guide balances three servers with a health check').toHaveLength(3);
  let server = 0;
  return config
    .replace(/^(\s*)bind \S+$/m, `$1bind 127.0.0.1:${port}`)
    .replace(
      /^(\s*server \w+ )[\d.]+:\d+( check\b.*)$/gm,
      (_, head: string, tail: string) => `${head}127.0.0.1:${ports[server++]}${tail}`,
    )
    .replace(/^global$/m, `global\n  stats socket ${socket} level admin`);
}

interface ServerState {
  readonly name: string;
  /** UP, DOWN, or `UP 1/3` while going down. */
  readonly status: string;
  /** The last check's result: L7OK, L7STS (a status other than expected), INI before the first. */
  readonly check: string;
  readonly code: string;
}

/** The servers of backend `backend` as HAProxy's admin socket reports them (`show stat`). */
function serverStates(socket: string, backend: string): Promise<ServerState[]> {
  return new Promise((resolve, reject) => {
    let text = '';
    const client = connect(socket, () => client.write('show stat\n'));
    client.on('data', (chunk) => {
      text += chunk.toString();
    });
    client.on('error', reject);
    client.on('end', () => {
      const [header, ...rows] = text.trim().split('\n');
      const columns = header.replace(/^# /, '').split(',');
      const field = (row: string[], name: string) => row[columns.indexOf(name)] ?? '';
      resolve(
        rows
          .map((line) => line.split(','))
          .filter((row) => field(row, 'pxname') === backend)
          .filter((row) => !['FRONTEND', 'BACKEND'].includes(field(row, 'svname')))
          .map((row) => ({
            name: field(row, 'svname'),
            status: field(row, 'status'),
            check: field(row, 'check_status'),
            code: field(row, 'check_code'),
          })),
      );
    });
  });
}

const ready = REDIS_SERVER !== undefined && HAPROXY !== undefined;

describe.skipIf(!ready)(
  'the deployment guide with the generated http project behind HAProxy',
  () => {
    let redis: RedisProcess;
    let instances: NodeProcess[];
    let balancer: Balancer;
    const haproxyLog: string[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'mcp-deployment-guide-'));
    const socket = join(dir, 'admin.sock');

    beforeAll(async () => {
      redis = await RedisProcess.start();
      // As the guide starts each instance: `node dist/main.js … --redis <url>` (`npx tsc -b` builds it).
      expect(existsSync(MAIN), `${MAIN} is built (npx tsc -b)`).toBe(true);
      const started = await Promise.allSettled(
        ['a', 'b', 'c'].map((name) =>
          NodeProcess.startProgram(name, [MAIN, '--redis', redis.url], { REDIS_URL: '' }),
        ),
      );
      instances = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      // One that did not start fails the suite; afterAll stops the others.
      for (const s of started) if (s.status === 'rejected') throw s.reason;
      const config = guideConfig();
      balancer = await Balancer.startWith(
        (port) =>
          onLoopback(
            config,
            port,
            instances.map((i) => i.port),
            socket,
          ),
        haproxyLog,
      );
    }, 60_000);

    afterAll(async () => {
      await balancer?.stop();
      await Promise.all((instances ?? []).map((i) => i.kill()));
      await redis?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it("the guide's health check marks every instance of the http template UP (it had no health endpoint: all DOWN)", async () => {
      // HAProxy spreads the first checks over its 2 s interval: wait until each server had one
      // and settled. On a busy machine a check can still be running ("* INI", the status then
      // in transition, "UP 1/3").
      let states: ServerState[] = [];
      const checked = () =>
        states.length === 3 &&
        states.every((s) => !/INI/.test(s.check) && s.check !== '' && !s.status.includes('/'));
      for (const end = Date.now() + patience(15_000); !checked() && Date.now() < end; ) {
        await new Promise((r) => setTimeout(r, 100));
        states = await serverStates(socket, 'instances');
      }
      expect(states, haproxyLog.join('')).toEqual(
        ['a', 'b', 'c'].map((name) => ({ name, status: 'UP', check: 'L7OK', code: '200' })),
      );
      expect(haproxyLog.join('')).not.toMatch(/is DOWN|no server available/);
    });

    it('--redis reaches the template through serveFromArgs (it was silently ignored): one legacy session is served by all three instances', async () => {
      for (const instance of instances)
        expect(instance.announced).toMatch(/with shared state in Redis/);
      const client = new Client({ name: 'deployment-guide', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(balancer.url)));
      // Round-robin without affinity: these six requests of one session land on every instance,
      // and each finds the session the first one created.
      for (let i = 0; i < 6; i++) {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toEqual(['add_note', 'list_notes']);
      }
      await client.close();
    });

    it("the template's notes are shared by every instance (they were per process: 6 saved, 2 listed)", async () => {
      const client = new Client({ name: 'deployment-guide', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(balancer.url)));
      const saved: string[] = [];
      for (let i = 1; i <= 6; i++) {
        const result = await client.callTool({
          name: 'add_note',
          arguments: { text: `note ${i}` },
        });
        saved.push((result.content as { text: string }[])[0].text);
      }
      expect(saved).toEqual([1, 2, 3, 4, 5, 6].map((n) => `Saved note ${n}.`));
      // Listed three times, so through every instance.
      for (let i = 0; i < 3; i++) {
        const listed = await client.callTool({ name: 'list_notes', arguments: {} });
        expect((listed.content as { text: string }[])[0].text).toBe(
          [1, 2, 3, 4, 5, 6].map((n) => `${n}. note ${n}`).join('\n'),
        );
      }
      await client.close();
    });
  },
);
