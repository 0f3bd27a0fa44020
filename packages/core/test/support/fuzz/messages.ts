import fc from 'fast-check';
import { TOOL_NAMES } from './fuzz-server.ts';

// Generators of what a hostile or broken client may send: valid MCP messages of both eras,
// the same with mutations, JSON-RPC odds and ends, random JSON, and bytes that are not JSON.

export const LEGACY = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
export const MODERN = '2026-07-28';
const META = 'io.modelcontextprotocol/';

/** One step of a fuzzed conversation, before ids are tied to earlier requests. */
export type Step =
  | {
      readonly kind: 'message';
      readonly value: Record<string, unknown>;
      readonly mutation: Mutation | null;
    }
  | { readonly kind: 'raw'; readonly text: string }
  | { readonly kind: 'batch'; readonly items: readonly Record<string, unknown>[] }
  | { readonly kind: 'cancel'; readonly back: number }
  | { readonly kind: 'pause' };

export type Mutation =
  | { readonly kind: 'delete'; readonly key: string }
  | { readonly kind: 'set'; readonly key: string; readonly value: unknown }
  | { readonly kind: 'proto'; readonly inParams: boolean; readonly value: unknown }
  | { readonly kind: 'deep'; readonly depth: number }
  | { readonly kind: 'huge-number'; readonly digits: number }
  | { readonly kind: 'long-string'; readonly length: number }
  | { readonly kind: 'truncate'; readonly at: number };

const json = fc.jsonValue({ maxDepth: 3 });
const object = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), {
  maxKeys: 4,
});
const id = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 1_000_000 }) },
  fc.string({ minLength: 1, maxLength: 6 }).map((s) => `r-${s}`),
);
const weird = fc.oneof(
  fc.constant(null),
  fc.constantFrom(1e308, -0, 2 ** 53 + 1, 1.5, -1, Number.MAX_SAFE_INTEGER, Number.NaN),
  fc.string({ maxLength: 10 }),
  json,
);

const toolArgs = fc.oneof(
  fc.record({ text: fc.string({ maxLength: 20 }) }),
  fc.record({ n: fc.integer({ min: -2, max: 6000 }) }),
  fc.record({ steps: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ user: fc.boolean() }),
  fc.constant({}),
  object,
);

/** A call with arguments that fit the tool (so the handler, and the guardrails, run). */
const toolCall = fc.oneof(
  fc.record({
    name: fc.constant('echo'),
    arguments: fc.record({ text: fc.string({ maxLength: 20 }) }),
  }),
  fc.record({
    name: fc.constant('structured'),
    arguments: fc.record({ n: fc.integer({ min: 0, max: 5 }) }),
  }),
  fc.record({
    name: fc.constantFrom('hang', 'limited', 'ask', 'ctrl'),
    arguments: fc.constant({}),
  }),
  fc.record({ name: fc.constant('boom'), arguments: fc.record({ user: fc.boolean() }) }),
  fc.record(
    {
      name: fc.constant('progress'),
      arguments: fc.record({ steps: fc.integer({ min: 0, max: 3 }) }),
      _meta: fc.record({ progressToken: fc.oneof(fc.string({ maxLength: 4 }), fc.nat()) }),
    },
    { requiredKeys: ['name', 'arguments'] },
  ),
  fc.record({
    name: fc.constant('big'),
    arguments: fc.record({ n: fc.integer({ min: 0, max: 5000 }) }),
  }),
);

const uri = fc.oneof(
  fc.constantFrom('fuzz://readme', 'fuzz://items/1', 'fuzz://items/%zz', 'nope://x', ''),
  fc.string({ maxLength: 12 }),
);
const cursor = fc.option(fc.string({ maxLength: 12 }), { nil: undefined });
const capabilities = fc.oneof(
  fc.constant({}),
  fc.constant({ elicitation: {} }),
  fc.constant({ elicitation: {}, roots: {}, sampling: {} }),
  object,
);

const METHODS: [string, fc.Arbitrary<unknown>][] = [
  ['ping', fc.constant(undefined)],
  ['tools/list', fc.record({ cursor }, { requiredKeys: [] })],
  [
    'tools/call',
    fc.oneof(
      { weight: 3, arbitrary: toolCall },
      fc.record(
        {
          name: fc.oneof(fc.constantFrom(...TOOL_NAMES), fc.string({ maxLength: 8 })),
          arguments: toolArgs,
        },
        { requiredKeys: ['name'] },
      ),
    ),
  ],
  ['resources/list', fc.record({ cursor }, { requiredKeys: [] })],
  ['resources/templates/list', fc.constant({})],
  ['resources/read', fc.record({ uri })],
  ['resources/subscribe', fc.record({ uri })],
  ['resources/unsubscribe', fc.record({ uri })],
  ['prompts/list', fc.constant({})],
  [
    'prompts/get',
    fc.record(
      {
        name: fc.constantFrom('about', 'nope'),
        arguments: fc.oneof(fc.record({ topic: fc.string({ maxLength: 8 }) }), object),
      },
      { requiredKeys: ['name'] },
    ),
  ],
  [
    'completion/complete',
    fc.record({
      ref: fc.oneof(
        fc.constant({ type: 'ref/prompt', name: 'about' }),
        fc.constant({ type: 'ref/resource', uri: 'fuzz://items/{id}' }),
        object,
      ),
      argument: fc.record({
        name: fc.constantFrom('topic', 'id', 'x'),
        value: fc.string({ maxLength: 4 }),
      }),
    }),
  ],
  ['logging/setLevel', fc.record({ level: fc.constantFrom('debug', 'info', 'error', 'loud') })],
  ['tasks/get', fc.record({ taskId: fc.string() })],
  ['no/such', object],
];

const MODERN_METHODS: [string, fc.Arbitrary<unknown>][] = [
  ...METHODS,
  ['server/discover', fc.constant({})],
  [
    'subscriptions/listen',
    fc.record({
      notifications: fc.record(
        { toolsListChanged: fc.boolean(), resourceSubscriptions: fc.array(uri, { maxLength: 2 }) },
        { requiredKeys: [] },
      ),
    }),
  ],
  [
    'initialize',
    fc.constant({
      protocolVersion: MODERN,
      capabilities: {},
      clientInfo: { name: 'f', version: '1' },
    }),
  ],
];

// Calls run handlers (and so the guardrails): they come up more often than the rest.
const WEIGHTS: Record<string, number> = { 'tools/call': 8, 'resources/read': 2, 'prompts/get': 2 };

const request = (methods: [string, fc.Arbitrary<unknown>][]) =>
  fc.oneof(
    ...methods.map(([method, params]) => ({
      weight: WEIGHTS[method] ?? 1,
      arbitrary: fc.record({
        jsonrpc: fc.constant('2.0'),
        id,
        method: fc.constant(method),
        params,
      }),
    })),
  );

export const initialize = fc.record({
  jsonrpc: fc.constant('2.0'),
  id,
  method: fc.constant('initialize'),
  params: fc.record({
    protocolVersion: fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...LEGACY) },
      fc.string({ maxLength: 10 }),
    ),
    capabilities,
    clientInfo: fc.record({
      name: fc.string({ maxLength: 6 }),
      version: fc.string({ maxLength: 4 }),
    }),
  }),
});

const envelope = fc
  .record(
    {
      [`${META}protocolVersion`]: fc.oneof(
        { weight: 6, arbitrary: fc.constant(MODERN) },
        fc.constantFrom('2025-11-25', 'next'),
        weird,
      ),
      [`${META}clientCapabilities`]: fc.oneof({ weight: 8, arbitrary: capabilities }, weird),
      [`${META}clientInfo`]: fc.record({
        name: fc.string({ maxLength: 6 }),
        version: fc.constant('1'),
      }),
      [`${META}logLevel`]: fc.constantFrom('debug', 'info', 'loud'),
    },
    { requiredKeys: [`${META}protocolVersion`] },
  )
  .chain((meta) =>
    // Usually complete (the client capabilities are required); sometimes not.
    fc.oneof(
      { weight: 8, arbitrary: fc.constant({ [`${META}clientCapabilities`]: {}, ...meta }) },
      fc.constant(meta),
    ),
  );

/** A 2026-07-28 request: the method's params plus the `_meta` envelope. */
export const modernRequest = fc.tuple(request(MODERN_METHODS), envelope).map(([message, meta]) => {
  const params = (message.params ?? {}) as Record<string, unknown>;
  return {
    ...message,
    params: { ...params, _meta: { ...(params._meta as object | undefined), ...meta } },
  };
});

export const legacyRequest = request(METHODS);

export const notification = fc.oneof(
  fc.constant({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    method: fc.constantFrom(
      'notifications/cancelled',
      'notifications/progress',
      'notifications/roots/list_changed',
      'notifications/x',
    ),
    params: object,
  }),
);

/** What a client answers to the server's own requests (elicitation), right or wrong. */
export const clientResponse = fc.record({
  jsonrpc: fc.constant('2.0'),
  id: fc.oneof(fc.nat(6), weird),
  result: fc.oneof(
    fc.constant({ action: 'accept', content: { name: 'Ada' } }),
    fc.constant({ action: 'decline' }),
    json,
  ),
});

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('delete' as const),
    key: fc.constantFrom('jsonrpc', 'id', 'method', 'params'),
  }),
  fc.record({
    kind: fc.constant('set' as const),
    key: fc.constantFrom('jsonrpc', 'id', 'method', 'params', 'result', 'error', 'x'),
    value: weird,
  }),
  fc.record({ kind: fc.constant('proto' as const), inParams: fc.boolean(), value: json }),
  fc.record({ kind: fc.constant('deep' as const), depth: fc.integer({ min: 50, max: 5000 }) }),
  fc.record({
    kind: fc.constant('huge-number' as const),
    digits: fc.integer({ min: 20, max: 400 }),
  }),
  fc.record({
    kind: fc.constant('long-string' as const),
    length: fc.integer({ min: 1000, max: 200_000 }),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);

const junk = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes).toString('utf8')),
  json.map((value) => JSON.stringify(value)),
  fc.constantFrom(
    '',
    ' ',
    'null',
    '[]',
    '{}',
    '[[]]',
    '[1,2]',
    '{"jsonrpc":"2.0"}',
    '{"jsonrpc":"2.0","id":1}',
    '{"jsonrpc":"2.0","id":null,"error":{}}',
    '{"__proto__":{"polluted":1}}',
  ),
);

const message = (value: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Step> =>
  fc.record({
    kind: fc.constant('message' as const),
    value,
    mutation: fc.option(mutation, { freq: 3, nil: null }),
  });

/** One step; `modern` weighs the mix towards 2026-07-28 envelopes. */
export function step(modern: boolean): fc.Arbitrary<Step> {
  return fc.oneof(
    { weight: 8, arbitrary: message(modern ? modernRequest : legacyRequest) },
    { weight: 2, arbitrary: message(modern ? legacyRequest : modernRequest) },
    { weight: 2, arbitrary: message(notification) },
    { weight: 1, arbitrary: message(clientResponse) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('raw' as const), text: junk }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('batch' as const),
        items: fc.array(fc.oneof(legacyRequest, notification), { maxLength: 3 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), back: fc.nat(3) }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'pause' as const }) },
  );
}

/** A conversation: usually a handshake first (legacy) so later requests get past it. */
export const conversation: fc.Arbitrary<Step[]> = fc.boolean().chain((modern) =>
  fc
    .tuple(
      modern
        ? fc.constant([])
        : fc.option(
            message(initialize).map((s) => [
              s,
              {
                kind: 'message' as const,
                value: { jsonrpc: '2.0', method: 'notifications/initialized' },
                mutation: null,
              },
            ]),
            { freq: 6, nil: [] },
          ),
      fc.array(step(modern), { minLength: 1, maxLength: 12 }),
    )
    .map(([start, rest]) => [...start, ...rest]),
);

/** The frame text of a step; `earlier` holds the ids of requests sent so far (for cancels). */
export function render(step: Step, earlier: readonly unknown[]): string | undefined {
  switch (step.kind) {
    case 'raw':
      return step.text;
    case 'batch':
      return JSON.stringify(step.items);
    case 'cancel': {
      const requestId = earlier[earlier.length - 1 - step.back];
      return requestId === undefined
        ? undefined
        : JSON.stringify({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId, reason: 'fuzz' },
          });
    }
    case 'pause':
      return undefined;
    case 'message':
      return step.mutation ? mutate(step.value, step.mutation) : JSON.stringify(step.value);
  }
}

// The placeholder as JSON.stringify writes it (NUL escaped), replaced by raw text afterwards.
const DEEP = JSON.stringify('\u0000deep\u0000');

function mutate(value: Record<string, unknown>, m: Mutation): string {
  const copy: Record<string, unknown> = { ...value };
  const params =
    typeof copy.params === 'object' && copy.params !== null && !Array.isArray(copy.params)
      ? { ...(copy.params as object) }
      : {};
  switch (m.kind) {
    case 'delete':
      delete copy[m.key];
      return JSON.stringify(copy);
    case 'set':
      copy[m.key] = m.value;
      return JSON.stringify(copy);
    case 'proto': {
      const target = m.inParams ? params : copy;
      Object.defineProperty(target, '__proto__', {
        value: m.value,
        enumerable: true,
        configurable: true,
        writable: true,
      });
      if (m.inParams) copy.params = params;
      return JSON.stringify(copy);
    }
    case 'deep':
      copy.params = { ...params, arguments: '\u0000deep\u0000' };
      return JSON.stringify(copy).replace(DEEP, `${'['.repeat(m.depth)}${']'.repeat(m.depth)}`);
    case 'huge-number':
      copy.params = { ...params, n: '\u0000deep\u0000' };
      return JSON.stringify(copy).replace(DEEP, '9'.repeat(m.digits));
    case 'long-string':
      copy.params = { ...params, text: 'é'.repeat(m.length) };
      return JSON.stringify(copy);
    case 'truncate': {
      const text = JSON.stringify(copy);
      return text.slice(0, m.at % Math.max(1, text.length));
    }
  }
}
