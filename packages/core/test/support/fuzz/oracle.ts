import { mcpSchema } from '../mcp-schema.ts';
import { MODERN } from './messages.ts';

interface Expected {
  /** Requests sent with this id (a fuzzer may repeat one). */
  count: number;
  methods: Set<string>;
  /** Cancelled, a subscription stream, or inside a batch: may go unanswered. */
  optional: boolean;
}

const isId = (id: unknown): id is string | number =>
  typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
const keyOf = (id: unknown) => JSON.stringify(id);

/**
 * What the client sent, read the way a correct JSON-RPC peer must read it: which requests
 * deserve exactly one answer, which ids may be answered at all (invalid messages whose id is
 * readable get an Invalid Request error with it).
 */
export class Ledger {
  readonly expected = new Map<string, Expected>();
  /** Other messages with a readable id, by id: each may get an Invalid Request error. */
  readonly answerable = new Map<string, number>();
  readonly cancelled = new Set<string>();

  sent(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) this.#one(item, true);
      return;
    }
    this.#one(value, false);
  }

  #one(value: unknown, inBatch: boolean): void {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    const m = value as Record<string, unknown>;
    if (m.method === 'notifications/cancelled' && !Object.hasOwn(m, 'id')) {
      const target = (m.params as { requestId?: unknown } | undefined)?.requestId;
      if (isId(target)) this.cancelled.add(keyOf(target));
      return;
    }
    const params = m.params;
    const isRequest =
      m.jsonrpc === '2.0' &&
      typeof m.method === 'string' &&
      Object.hasOwn(m, 'id') &&
      isId(m.id) &&
      (params === undefined || (typeof params === 'object' && params !== null));
    if (!isRequest) {
      if (Object.hasOwn(m, 'id') && isId(m.id))
        this.answerable.set(keyOf(m.id), (this.answerable.get(keyOf(m.id)) ?? 0) + 1);
      return;
    }
    const key = keyOf(m.id);
    const entry = this.expected.get(key) ?? {
      count: 0,
      methods: new Set<string>(),
      optional: false,
    };
    entry.count++;
    entry.methods.add(m.method as string);
    if (inBatch || m.method === 'subscriptions/listen') entry.optional = true;
    this.expected.set(key, entry);
  }

  /** Ids still owed an answer, given the answers received so far. */
  owed(received: ReadonlyMap<string, number>): string[] {
    const owed: string[] = [];
    for (const [key, entry] of this.expected) {
      if (entry.optional || this.cancelled.has(key)) continue;
      if ((received.get(key) ?? 0) < entry.count) owed.push(key);
    }
    return owed;
  }
}

/**
 * Checks every frame the server wrote against what was sent: each parses, is a JSON-RPC message
 * valid in the official schema of the revision in use (`id: null` errors, valid JSON-RPC but in
 * no MCP schema, are allowed and shape-checked), no id is answered more often than it was sent,
 * and every request that was not cancelled, batched or a subscription got exactly one answer.
 */
export function checkConversation(
  ledger: Ledger,
  frames: readonly string[],
  revision = '2025-11-25',
): string[] {
  const problems: string[] = [];
  const answers = new Map<string, number>();
  let legacy = revision;
  for (const frame of frames) {
    let value: unknown;
    try {
      value = JSON.parse(frame);
    } catch {
      problems.push(`not JSON: ${frame.slice(0, 200)}`);
      continue;
    }
    for (const message of Array.isArray(value) ? value : [value]) {
      const m = message as Record<string, any>;
      if (m?.result?.protocolVersion && m.result.serverInfo) legacy = m.result.protocolVersion;
      problems.push(...checkMessage(m, ledger, answers, legacy));
    }
  }
  for (const [key, count] of answers) {
    const sent = (ledger.expected.get(key)?.count ?? 0) + (ledger.answerable.get(key) ?? 0);
    if (count > sent) problems.push(`id ${key} answered ${count} times, sent ${sent} times`);
  }
  for (const key of ledger.owed(answers))
    problems.push(`request ${key} (${[...ledger.expected.get(key)!.methods]}) never answered`);
  return problems;
}

export function checkMessage(
  m: Record<string, any>,
  ledger: Ledger,
  answers: Map<string, number>,
  legacy: string,
): string[] {
  if (typeof m !== 'object' || m === null || m.jsonrpc !== '2.0')
    return [`not a JSON-RPC message: ${JSON.stringify(m)?.slice(0, 200)}`];
  const isResponse = 'result' in m || 'error' in m;
  if (!isResponse) {
    // A server request or notification: valid in the legacy revision, or (stdio) 2026-07-28.
    const legacyProblems = mcpSchema(legacy).check(m);
    return legacyProblems.length === 0 || mcpSchema(MODERN).check(m).length === 0
      ? []
      : legacyProblems.map((p) => `server message: ${p}`);
  }
  if (m.id === null) {
    const e = m.error;
    const ok = !('result' in m) && Number.isInteger(e?.code) && typeof e?.message === 'string';
    return ok ? [] : [`bad id-null error: ${JSON.stringify(m).slice(0, 200)}`];
  }
  const key = keyOf(m.id);
  answers.set(key, (answers.get(key) ?? 0) + 1);
  const expected = ledger.expected.get(key);
  // An Invalid Request error may answer any message whose id could be read.
  if (m.error?.code === -32600 && ledger.answerable.has(key)) return [];
  if (!expected) {
    if (!ledger.answerable.has(key)) return [`answer to an id never sent: ${key}`];
    return [
      `answer to a non-request other than Invalid Request: ${JSON.stringify(m).slice(0, 200)}`,
    ];
  }
  const revision = m.result?.resultType !== undefined ? MODERN : legacy;
  const schema = mcpSchema(revision);
  const attempts =
    'error' in m
      ? [schema.check(m)]
      : [...expected.methods].map((method) => schema.check(m, method));
  if (attempts.some((p) => p.length === 0)) return [];
  // An error answered to a legacy request on a 2026-07-28 connection (or the reverse) is still one shape.
  if ('error' in m && mcpSchema(revision === MODERN ? legacy : MODERN).check(m).length === 0)
    return [];
  return [
    `${[...expected.methods]} answer invalid under ${revision}: ${attempts[0].join('; ').slice(0, 300)} — ${JSON.stringify(m).slice(0, 300)}`,
  ];
}

/** How many answers each id has received in `frames` (for waiting until nothing is owed). */
export function countAnswers(frames: readonly string[]): Map<string, number> {
  const answers = new Map<string, number>();
  for (const frame of frames) {
    let value: unknown;
    try {
      value = JSON.parse(frame);
    } catch {
      continue;
    }
    for (const m of Array.isArray(value) ? value : [value]) {
      if (
        m &&
        typeof m === 'object' &&
        ('result' in m || 'error' in m) &&
        m.id !== null &&
        m.id !== undefined
      ) {
        const key = keyOf(m.id);
        answers.set(key, (answers.get(key) ?? 0) + 1);
      }
    }
  }
  return answers;
}
