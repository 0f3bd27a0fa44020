import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { patience } from '../../../test-support/patience.ts';
import { startFixture, type FixtureProcess } from './support/fixture-process.ts';

// JSON.parse accepts nesting far deeper than the call stack; anything that walks, prints or
// String()s a client's value recursively would fail on it. Every field of every method gets a
// value nested 60,000 deep, in both eras, over stdio and HTTP: each answer must be a result or
// the client's error, never -32603, -32700 or a 5xx, and the server must keep serving.
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const DEPTH = 60_000;
const DEEP = [
  '['.repeat(DEPTH) + ']'.repeat(DEPTH),
  `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`,
];
const METHODS = [
  'initialize',
  'tools/call',
  'tools/list',
  'prompts/get',
  'prompts/list',
  'resources/read',
  'resources/list',
  'resources/templates/list',
  'completion/complete',
  'server/discover',
  'resources/subscribe',
  'logging/setLevel',
  'ping',
];
const FIELDS = [
  'name',
  'arguments',
  'cursor',
  'uri',
  'ref',
  'argument',
  'level',
  'requestState',
  'inputResponses',
  'notifications',
  'protocolVersion',
  'capabilities',
  'clientInfo',
  'task',
];
const ENVELOPE =
  '"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"sampling":{},"roots":{}}';
const INITIALIZE =
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"deep","version":"1"}}}';

type Era = 'legacy' | 'modern';

/** The hostile frames of one era, each with its id; the last is a plain tools/list. */
function frames(era: Era): { id: number; text: string; method: string }[] {
  const meta = (extra = '') =>
    era === 'modern'
      ? `,"_meta":{${ENVELOPE}${extra}}`
      : extra
        ? `,"_meta":{${extra.slice(1)}}`
        : '';
  const out: { id: number; text: string; method: string }[] = [];
  let id = 0;
  const add = (method: string, params: string) =>
    out.push({
      id: ++id,
      method,
      text: `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":{${params}}}`,
    });
  for (const method of METHODS)
    for (const field of FIELDS) for (const deep of DEEP) add(method, `"${field}":${deep}${meta()}`);
  for (const deep of DEEP) {
    // Without an envelope: a legacy initialize reaching a connection pinned to 2026-07-28.
    add(
      'initialize',
      `"protocolVersion":${deep},"capabilities":{},"clientInfo":{"name":"x","version":"1"}`,
    );
    add('tools/list', `"_meta":${deep}`);
    add('tools/list', meta(`,"progressToken":${deep}`).slice(1));
    add('tools/call', `"name":"test_simple_text","arguments":{"x":${deep}}${meta()}`);
  }
  add('tools/list', meta().slice(1));
  return out;
}

function badAnswers(lines: string[]): string[] {
  const bad: string[] = [];
  for (const line of lines) {
    let message: { error?: { code?: number } };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      bad.push(`not JSON: ${line.slice(0, 120)}`);
      continue;
    }
    if (message.error?.code === -32603 || message.error?.code === -32700)
      bad.push(line.slice(0, 200));
  }
  return bad;
}

describe('values nested deeper than the call stack', () => {
  it.each<Era>(['legacy', 'modern'])(
    'stdio, %s: every answer is a result or the client’s error, and the server keeps serving',
    async (era) => {
      const child = spawn(process.execPath, [MAIN], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const all = frames(era);
      const last = all[all.length - 1];
      if (era === 'legacy')
        child.stdin.write(
          `${INITIALIZE}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`,
        );
      for (const f of all) child.stdin.write(`${f.text}\n`);
      try {
        await expect
          .poll(() => out.includes(`"id":${last.id},"result":{"tools":`), {
            timeout: patience(30_000),
            interval: 100,
          })
          .toBe(true);
        const lines = out.split('\n').filter(Boolean);
        expect(badAnswers(lines)).toEqual([]);
        // One answer per request (and the initialize); nothing else on stdout.
        expect(lines.length).toBe(all.length + (era === 'legacy' ? 1 : 0));
        expect(stderr).not.toMatch(/RangeError|Maximum call stack/);
      } finally {
        child.kill();
      }
    },
    patience(60_000),
  );

  describe('HTTP', () => {
    let fixture: FixtureProcess | undefined;
    afterAll(() => fixture?.stop());

    async function post(
      body: string,
      headers: Record<string, string>,
    ): Promise<{ status: number; text: string }> {
      const res = await fetch(fixture!.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body,
      });
      return { status: res.status, text: await res.text() };
    }

    it.each<Era>(['modern', 'legacy'])(
      '%s: no 5xx, no -32603/-32700, and the server keeps serving',
      async (era) => {
        fixture ??= await startFixture();
        let headers: Record<string, string> = {};
        if (era === 'legacy') {
          const res = await fetch(fixture.url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
            body: INITIALIZE,
          });
          await res.text();
          headers = {
            'mcp-session-id': res.headers.get('mcp-session-id')!,
            'mcp-protocol-version': '2025-11-25',
          };
        }
        const failures: string[] = [];
        for (const f of frames(era)) {
          const sent =
            era === 'modern'
              ? {
                  ...headers,
                  'mcp-protocol-version': '2026-07-28',
                  'mcp-method': f.method,
                  'mcp-name': 'x',
                }
              : headers;
          const { status, text } = await post(f.text, sent);
          if (status >= 500) failures.push(`${status} for ${f.text.slice(0, 80)}`);
          const body = text.startsWith('{')
            ? [text]
            : text
                .split('\n')
                .filter((l) => l.startsWith('data: '))
                .map((l) => l.slice(6));
          failures.push(...badAnswers(body));
        }
        expect(failures).toEqual([]);
      },
      patience(60_000),
    );
  });
});
