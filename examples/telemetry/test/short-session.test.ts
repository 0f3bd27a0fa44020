import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../packages/core/test/support/paths.ts';
import { startReceiver, type OtlpReceiver } from '../../../test-support/otlp-receiver.ts';

// Issue #29, "Telemetry flushes": the example as its README configures it (the built
// dist/main.js, the SDK's default schedule: spans batched for 5 s, metrics every 60 s) must leave
// every span and the duration metric at the exporter when a short session ends. Each check runs
// once the process has exited: what was not sent by then is lost.

const MAIN = join(REPO_ROOT, 'examples/telemetry/dist/main.js');
const README = join(REPO_ROOT, 'examples/telemetry/README.md');
const SPANS = ['initialize', 'notifications/initialized', 'tools/call tides', 'tide-table lookup'];

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'short-session-test', version: '1' },
  },
};
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const CALL = {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: { name: 'tides', arguments: { port: 'Bergen' } },
};

beforeAll(() => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npx tsc -b\` first`);
});

let receiver: OtlpReceiver | undefined;
let children: ChildProcessWithoutNullStreams[] = [];
afterEach(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  children = [];
  await receiver?.close();
  receiver = undefined;
});

/** `node dist/main.js` as the README's collector section configures it, aimed at a receiver. */
async function started(args: string[] = []) {
  receiver = await startReceiver();
  const child = spawn(process.execPath, [MAIN, ...args], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      OTEL_SERVICE_NAME: 'tides',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_METRICS_EXPORTER: 'otlp',
      OTEL_NODE_RESOURCE_DETECTORS: 'env',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const until = async (check: () => boolean, what: string) => {
    const deadline = Date.now() + 20_000;
    while (!check()) {
      if (child.exitCode !== null) throw new Error(`the server exited before ${what}: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`no ${what} within 20 s: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { child, exited, until, stdout: () => stdout, stderr: () => stderr, receiver };
}

function expectEverything(received: OtlpReceiver) {
  expect(received.spans.map((s) => s.name).sort()).toEqual([...SPANS].sort());
  const call = received.spans.find((s) => s.name === 'tools/call tides')!;
  expect(received.spans.find((s) => s.name === 'tide-table lookup')!.parentSpanId).toBe(
    call.spanId,
  );
  expect(received.metrics.map((m) => m.name)).toContain('mcp.server.operation.duration');
}

describe('Telemetry flushes: a short stdio session of examples/telemetry as its README configures it', () => {
  it.each([['stdin closed'], ['SIGTERM'], ['SIGINT']])(
    'every span and the duration metric reach the OTLP endpoint when the session ends: %s',
    async (end) => {
      const server = await started();
      const lines = [INITIALIZE, INITIALIZED, CALL].map((m) => `${JSON.stringify(m)}\n`);
      server.child.stdin.write(lines.join(''));
      await server.until(() => server.stdout().includes('"id":2'), 'answer to the call');
      if (end === 'stdin closed') server.child.stdin.end();
      else server.child.kill(end as NodeJS.Signals);
      // Within the 5 s the SDK would otherwise wait before sending its first batch.
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expectEverything(server.receiver);
    },
  );

  it('SIGTERM right after initialize, the call possibly still running: the call is answered, then its spans are sent', async () => {
    const server = await started();
    server.child.stdin.write(
      [INITIALIZE, INITIALIZED, CALL].map((m) => `${JSON.stringify(m)}\n`).join(''),
    );
    await server.until(() => server.stdout().includes('"id":1'), 'answer to initialize');
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stdout()).toContain('Bergen: 06:12 high, 12:31 low');
    expectEverything(server.receiver);
  });
});

describe('Telemetry flushes: a short HTTP session of examples/telemetry', () => {
  it('every span and the duration metric reach the OTLP endpoint on SIGTERM', async () => {
    const server = await started(['--http', '--port', '0']);
    await server.until(() => /listening on http/.test(server.stderr()), 'listening line');
    const url = /listening on (http:\/\/\S+)/.exec(server.stderr())![1];
    const post = (message: object) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'tides',
        },
        body: JSON.stringify(message),
      });
    const answer = await post({
      ...CALL,
      params: {
        ...CALL.params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    expect(await answer.text()).toContain('Bergen: 06:12 high, 12:31 low');
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.receiver.spans.map((s) => s.name).sort()).toEqual(
      ['tide-table lookup', 'tools/call tides'].sort(),
    );
    expect(server.receiver.metrics.map((m) => m.name)).toContain('mcp.server.operation.duration');
  });
});

describe('Telemetry flushes: the README shows the spans with no collector', () => {
  it('the console-exporter command of the README, run as written, prints every span and the metric', async () => {
    const block =
      /<!-- telemetry-console:start -->\n```bash\n([\s\S]*?)```\n<!-- telemetry-console:end -->/.exec(
        readFileSync(README, 'utf8'),
      );
    expect(block, 'the README marks its console-exporter command').not.toBeNull();
    const child = spawn('bash', ['-c', block![1]], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    // stdout: the protocol's answers only.
    const answers = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect(answers[1].result.content[0].text).toBe('Bergen: 06:12 high, 12:31 low');
    for (const name of SPANS) expect(stderr).toContain(`name: '${name}'`);
    expect(stderr).toContain("name: 'mcp.server.operation.duration'");
  });
});
