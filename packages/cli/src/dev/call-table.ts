import type { JsonRpcId } from '@mcp-fw/core/transport';
import type { ChildLink } from './child-link.js';
import { idKey } from './session-state.js';

/** One connection of a client session on one child. */
export interface Attachment {
  readonly link: ChildLink;
  /** The connection's number on the mux pipe. */
  readonly s: number;
}

/** A client's request, forwarded to a child under an id of ours. */
export interface ClientCall {
  readonly kind: 'client';
  readonly clientId: JsonRpcId;
  readonly method: string;
  readonly at: Attachment;
  /** The transport token of the frame that carried it (see RelaySession). */
  readonly token: number;
  /** A listen re-issued to a new child: its acknowledgement was already sent once. */
  readonly replayed?: boolean;
}

/** A request the supervisor itself sends (state replay). */
export interface InternalCall {
  readonly kind: 'internal';
  readonly at: Attachment;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export type Call = ClientCall | InternalCall;

/** A server→client request of a child, passed to the client under an id of ours. */
export interface ServerRequest {
  readonly at: Attachment;
  readonly childId: JsonRpcId;
}

/**
 * The ids in flight between one client session and its children. Ids are rewritten both ways:
 * children number their own requests from 1 (two children would collide at the client), and
 * the supervisor's replay requests must never collide with the client's.
 */
export class CallTable {
  readonly #calls = new Map<number, Call>();
  readonly #byClientId = new Map<string, number>();
  readonly #serverRequests = new Map<number, ServerRequest>();
  #nextChildId = 1;
  #nextClientId = 1;

  /** Registers a call and returns the id it gets on the child. */
  add(call: Call): number {
    const id = this.#nextChildId++;
    this.#calls.set(id, call);
    if (call.kind === 'client') this.#byClientId.set(idKey(call.clientId), id);
    return id;
  }

  get(childId: unknown): Call | undefined {
    return typeof childId === 'number' ? this.#calls.get(childId) : undefined;
  }

  /** Removes a call (answered, cancelled or lost) and returns it. */
  take(childId: unknown): Call | undefined {
    const call = this.get(childId);
    if (!call) return undefined;
    this.#calls.delete(childId as number);
    if (call.kind === 'client' && this.#byClientId.get(idKey(call.clientId)) === childId)
      this.#byClientId.delete(idKey(call.clientId));
    return call;
  }

  /** The child-side id of a client request still in flight. */
  childIdOf(clientId: JsonRpcId): number | undefined {
    return this.#byClientId.get(idKey(clientId));
  }

  /** Registers a server→client request and returns the id the client sees. */
  addServerRequest(request: ServerRequest): number {
    const id = this.#nextClientId++;
    this.#serverRequests.set(id, request);
    return id;
  }

  takeServerRequest(clientFacingId: unknown): ServerRequest | undefined {
    if (typeof clientFacingId !== 'number') return undefined;
    const request = this.#serverRequests.get(clientFacingId);
    this.#serverRequests.delete(clientFacingId);
    return request;
  }

  /** The client-facing id of a child's request, found by the child's own id. */
  findServerRequest(link: ChildLink, childId: unknown): number | undefined {
    for (const [id, request] of this.#serverRequests)
      if (request.at.link === link && request.childId === childId) return id;
    return undefined;
  }

  /** Every call and server request on `link` (its child is gone), removed from the table. */
  takeAllOn(link: ChildLink): { calls: Call[]; serverRequests: number[] } {
    const calls = [...this.#calls.entries()]
      .filter(([, call]) => call.at.link === link)
      .map(([id]) => this.take(id)!);
    const serverRequests = [...this.#serverRequests.entries()]
      .filter(([, r]) => r.at.link === link)
      .map(([id]) => id);
    for (const id of serverRequests) this.#serverRequests.delete(id);
    return { calls, serverRequests };
  }

  /** Whether anything is still outstanding on `at` (a call, or a request to the client). */
  busy(at: Attachment): boolean {
    for (const call of this.#calls.values()) if (call.at === at) return true;
    for (const request of this.#serverRequests.values()) if (request.at === at) return true;
    return false;
  }

  /** Client calls still waiting for an answer. */
  get clientCallsInFlight(): number {
    let n = 0;
    for (const call of this.#calls.values())
      if (call.kind === 'client' && call.method !== 'subscriptions/listen') n++;
    return n;
  }
}
