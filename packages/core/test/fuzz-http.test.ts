import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHttpHandler } from '@mcp-fw/core/http';
import { fuzzParameters, withRejectionWatch } from './support/fuzz/settings.ts';
import { fuzzServer } from './support/fuzz/fuzz-server.ts';
import { heapAfterGc } from './support/fuzz/heap.ts';
import { httpConversation, mcpHeadersOf, type HttpStep } from './support/fuzz/http-steps.ts';
import { MODERN, render } from './support/fuzz/messages.ts';
import { checkConversation, checkMessage, Ledger } from './support/fuzz/oracle.ts';

const server = fuzzServer();
const STATUSES = new Set([200, 202, 204, 400, 403, 404, 405, 406, 409, 413, 415, 503]);

interface Exchange {
  readonly status: number;
  readonly json: boolean;
  readonly text: string;
  /** JSON-RPC messages in the body: the JSON body, or each SSE event's data. */
  readonly frames: string[];
  /** The stream was cut by us (a budget or `abort`): what is missing may be missing. */
  readonly cut: boolean;
}

/** Reads a response whole, or an SSE stream until the request's answer, its end, or `budgetMs`. */
async function read(
  response: Response,
  answered: (frames: string[]) => boolean,
  budgetMs: number,
): Promise<Exchange> {
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('text/event-stream')) {
    const text = await response.text();
    return {
      status: response.status,
      json: type.includes('application/json'),
      text,
      frames: type.includes('application/json') ? [text] : [],
      cut: false,
    };
  }
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const frames: string[] = [];
  let buffer = '';
  let cut = false;
  const deadline = Date.now() + budgetMs;
  for (;;) {
    const next = await Promise.race([
      reader.read(),
      new Promise<'late'>((r) => setTimeout(() => r('late'), Math.max(0, deadline - Date.now()))),
    ]);
    if (next === 'late') {
      cut = true;
      await reader.cancel();
      break;
    }
    if (next.done) break;
    buffer += decoder.decode(next.value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      buffer = buffer.slice(end + 2);
      if (data !== '') frames.push(data);
    }
    if (answered(frames)) {
      await reader.cancel();
      break;
    }
  }
  return { status: response.status, json: false, text: '', frames, cut };
}

function headersFor(
  step: HttpStep,
  body: string | undefined,
  state: { session?: string; version: string; modern: boolean },
): Record<string, string> {
  const headers: Record<string, string> = {
    host: step.host === 'local' ? 'localhost' : 'evil.example',
  };
  if (step.origin !== 'none')
    headers.origin = step.origin === 'local' ? 'http://localhost:3000' : 'https://evil.example';
  if (step.contentType !== 'none')
    headers['content-type'] = step.contentType === 'json' ? 'application/json' : 'text/plain';
  if (step.accept !== 'none')
    headers.accept =
      step.accept === 'both' ? 'application/json, text/event-stream' : 'application/json';
  if (step.session === 'real' && state.session) headers['mcp-session-id'] = state.session;
  if (step.session === 'junk') headers['mcp-session-id'] = 'not-a-session';
  const versions = {
    match: state.modern ? MODERN : state.version,
    legacy: state.version,
    modern: MODERN,
    junk: '1999-01-01',
    none: undefined,
  };
  const version = versions[step.version];
  if (version) headers['mcp-protocol-version'] = version;
  if (step.mcpHeaders === 'derive') Object.assign(headers, mcpHeadersOf(body));
  if (step.mcpHeaders === 'junk')
    Object.assign(headers, { 'mcp-method': 'tools/list', 'mcp-name': '=?base64?%%%?=' });
  return headers;
}

/** A JSON body of a 4xx answer: one JSON-RPC error, its id null or one the body carried. */
function checkRefusal(frame: string, ledger: Ledger, revision: string): string[] {
  let message: any;
  try {
    message = JSON.parse(frame);
  } catch {
    return [`not JSON: ${frame.slice(0, 200)}`];
  }
  if (!message || !('error' in message) || 'result' in message)
    return [`not an error: ${frame.slice(0, 200)}`];
  if (message.id === null) return checkMessage(message, ledger, new Map(), revision);
  const key = JSON.stringify(message.id);
  if (!ledger.expected.has(key) && !ledger.answerable.has(key))
    return [`error for an id the body did not carry: ${frame.slice(0, 200)}`];
  // Transport refusals use implementation-defined codes; the shape is what the schemas check.
  const asRequest = new Ledger();
  asRequest.sent(JSON.stringify({ jsonrpc: '2.0', id: message.id, method: 'ping' }));
  return checkMessage(message, asRequest, new Map(), revision);
}

/** Sends one conversation through a fresh handler; returns every problem found. */
async function converse(
  conversation: fc.Arbitrary<any> extends never
    ? never
    : { modern: boolean; initialize: Record<string, unknown> | null; steps: HttpStep[] },
) {
  const mcp = createHttpHandler(server, { responseMode: 'auto' });
  const problems: string[] = [];
  const state: { session?: string; version: string; modern: boolean } = {
    version: '2025-11-25',
    modern: conversation.modern,
  };
  const earlier: unknown[] = [];
  const send = async (step: HttpStep, body: string | undefined) => {
    const ledger = new Ledger();
    if (body !== undefined) ledger.sent(body);
    const controller = new AbortController();
    const hasBody = body !== undefined && step.method !== 'GET' && step.method !== 'OPTIONS';
    const request = new Request(`http://localhost${step.path}`, {
      method: step.method,
      headers: headersFor(step, body, state),
      body: hasBody ? body : undefined,
      signal: controller.signal,
    });
    const response = await mcp.fetch(request);
    if (step.abort) controller.abort();
    const owed = (frames: string[]) =>
      checkConversation(ledger, frames, state.version).every((p) => !p.includes('never answered'));
    const exchange = await read(
      response,
      (frames) => hasBody && owed(frames),
      step.method === 'POST' ? 2000 : 50,
    ).catch(() => undefined);
    if (!exchange) return undefined;
    if (!STATUSES.has(exchange.status))
      problems.push(`status ${exchange.status} for ${step.method} ${step.path}`);
    for (const frame of exchange.frames) {
      try {
        const message = JSON.parse(frame);
        if (message?.result?.protocolVersion && message.result.serverInfo)
          state.version = message.result.protocolVersion;
      } catch {
        // reported by the checks below
      }
    }
    if (exchange.status >= 400) {
      // Refused at the HTTP level: the status is the answer; a JSON body is one JSON-RPC error.
      for (const frame of exchange.frames)
        problems.push(
          ...checkRefusal(frame, ledger, state.version).map((p) => `${exchange.status}: ${p}`),
        );
    } else if (step.method === 'POST' && hasBody && !step.abort && !exchange.cut) {
      problems.push(
        ...checkConversation(ledger, exchange.frames, state.version).map(
          (p) => `${step.method} ${step.path} → ${exchange.status}: ${p}`,
        ),
      );
    }
    return response;
  };
  if (conversation.initialize) {
    const body = JSON.stringify(conversation.initialize);
    const init: HttpStep = {
      method: 'POST',
      path: '/mcp',
      body: { kind: 'raw', text: body },
      session: 'none',
      contentType: 'json',
      accept: 'both',
      version: 'none',
      mcpHeaders: 'none',
      origin: 'none',
      host: 'local',
      abort: false,
    };
    const response = await send(init, body);
    state.session = response?.headers.get('mcp-session-id') ?? undefined;
    await send(
      { ...init, session: 'real' },
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    );
  }
  for (const step of conversation.steps) {
    const body = render(step.body, earlier);
    if (step.body.kind === 'message' && 'id' in step.body.value) earlier.push(step.body.value.id);
    await send(step, body);
  }
  await mcp.close();
  if (mcp.endpoint.sessionCount !== 0)
    problems.push(`${mcp.endpoint.sessionCount} sessions left after close`);
  return problems;
}

const property = fc.asyncProperty(httpConversation, async (conversation) => {
  expect(await converse(conversation)).toEqual([]);
});

describe('fuzzing the HTTP handler (fetch surface)', () => {
  it('never crashes; answers with known statuses and spec-valid messages, each request once; keeps memory bounded', {
    timeout: 60_000 + fuzzParameters(80).numRuns * 100,
  }, async () => {
    const { rejections } = await withRejectionWatch(async () => {
      const parameters = fuzzParameters(80);
      await fc.assert(property, parameters);
      const before = heapAfterGc();
      await fc.assert(property, { ...parameters, seed: parameters.seed + 1 });
      expect(heapAfterGc() - before).toBeLessThan(16);
    });
    expect(rejections).toEqual([]);
    // Every session and the stateless connection were let go.
    for (let i = 0; i < 200 && server.connectionCount > 0; i++)
      await new Promise((r) => setTimeout(r, 5));
    expect(server.connectionCount).toBe(0);
  });
});
