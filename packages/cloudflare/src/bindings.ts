// The little of the Workers runtime this package uses, typed structurally, so that it builds
// without @cloudflare/workers-types (whose globals clash with Node's and the DOM's).

/** A Durable Object's id: its string form routes later requests back to the same object. */
export interface DurableObjectIdLike {
  /** The id as 64 hex digits, which `idFromString` turns back into the id. */
  toString(): string;
}

/** A stub of one Durable Object: requests sent to it reach that object. */
export interface DurableObjectStubLike {
  /** Sends `request` to the object. */
  fetch(request: Request): Promise<Response>;
}

/** A Durable Object namespace binding (`env.MCP_SESSIONS`). */
export interface DurableObjectNamespaceLike {
  /** A new object's id (the object exists once a request reaches it). */
  newUniqueId(): DurableObjectIdLike;
  /** The id of the one object called `name` (every isolate gets the same id for it). */
  idFromName(name: string): DurableObjectIdLike;
  /** Throws on a string this namespace did not mint. */
  idFromString(id: string): DurableObjectIdLike;
  /** The stub that sends requests to the object `id`. */
  get(id: DurableObjectIdLike): DurableObjectStubLike;
}

/** What a Durable Object's constructor is given: its id among it. */
export interface DurableObjectStateLike {
  readonly id: DurableObjectIdLike;
}
