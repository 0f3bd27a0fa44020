/** A JSON-RPC request id. */
export type JsonRpcId = string | number;

/** A JSON-RPC request: it expects a response with the same id. */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

/** The error member of a JSON-RPC response. */
export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/** A JSON-RPC notification: no id, no response. */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

export function isValidId(id: unknown): id is JsonRpcId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
}

/** `{"jsonrpc":"2.0","id":…,"result":…}` built as text, splicing pre-serialised results. */
export function resultFrame(id: JsonRpcId, json: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${json}}`;
}

export function errorFrame(
  id: JsonRpcId | null,
  error: { code: number; message: string; data?: unknown },
): string {
  let body: string;
  try {
    body = JSON.stringify(error);
  } catch {
    // Data that cannot be serialised (a client's value nested too deep, a cycle) is left out:
    // the error still reaches the peer, and a throw here would escape the engine.
    body = JSON.stringify({ code: error.code, message: String(error.message) });
  }
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":${body}}`;
}

/**
 * Parses one frame. JSON.parse keeps `"__proto__"` as an own key, which turns into a prototype
 * write the moment user code assigns the arguments onto an object; such keys are dropped here so
 * nothing downstream can be polluted. The walk only runs when the text could hold the key: it
 * spells `__proto__`, or it has a `\u` escape, which can spell any key (`"\u005f_proto__"`).
 * Neither search pattern starts with `"`: one that does, common in JSON, makes V8 switch to a
 * table-driven search that is much slower on every frame.
 */
export function parseFrame(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (text.includes('__proto__') || text.includes('\\u')) dropProtoKeys(value);
  return value;
}

/**
 * {@link parseFrame} for text already known to hold no backslash: with no escape, only a plain
 * `__proto__` can spell the key, so the `\\u` search is skipped.
 */
export function parseUnescapedFrame(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (text.includes('__proto__')) dropProtoKeys(value);
  return value;
}

function dropProtoKeys(root: unknown): void {
  forEachObject(root, (value) => {
    // biome-ignore lint/suspicious/noProto: this removes an own `__proto__` key a peer sent, so it never reaches a prototype.
    if (Object.hasOwn(value, '__proto__')) delete (value as Record<string, unknown>).__proto__;
  });
}

/**
 * Visits every object and array in a parsed JSON value, parents first; `visit` returning false
 * skips that one's children. A loop, not recursion: JSON.parse accepts nesting far deeper than
 * the call stack, and a walk over a client's value must not run out of it.
 */
export function forEachObject(root: unknown, visit: (value: object) => boolean | undefined): void {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null || visit(value) === false) continue;
    for (const child of Object.values(value))
      if (typeof child === 'object' && child !== null) pending.push(child);
  }
}
