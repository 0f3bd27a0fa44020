import { RawJson } from '../../jsonrpc/index.js';
import { promised, thenMaybe } from '../../registry/index.js';
import { compose, type Step as ComposedStep } from './compose.js';
import { MiddlewareContext, type MessageSource } from './context.js';
import { HOOK_OF_METHOD, type Hook, type Middleware, type MiddlewareHooks } from './types.js';

type Step = Hook<unknown>;
type ChainStep = ComposedStep<MiddlewareContext>;
type Family = keyof MiddlewareHooks;

const NO_STEPS: readonly Step[] = Object.freeze([]);

/**
 * The server's middleware and the chains built from it: per kind of message for server
 * middleware, per member for calls (server, then class and member `@Use`). Chains are built on
 * first use and dropped when `use` adds more. With no middleware anywhere, callers skip it all
 * after one property check ({@link idle}).
 */
export class Pipeline {
  readonly #server: Middleware[] = [];
  #families = new Map<string, readonly Step[]>();
  #members = new WeakMap<readonly unknown[], readonly Step[]>();
  #idle = true;
  // Server middleware that can switch itself off (`enabled`), unless some cannot.
  #switches?: (() => boolean)[];

  constructor(middleware: readonly Middleware[] = []) {
    if (!Array.isArray(middleware))
      throw new TypeError(
        `createServer: middleware must be an array, got ${middleware === null ? 'null' : typeof middleware}. Write middleware: [myMiddleware].`,
      );
    this.use(...middleware);
  }

  /**
   * No server middleware, or none switched on (members may still have their own): the caller
   * skips the chain.
   */
  get idle(): boolean {
    if (this.#idle) return true;
    const switches = this.#switches;
    if (!switches) return false;
    for (const enabled of switches) if (enabled()) return false;
    return true;
  }

  use(...middleware: Middleware[]): void {
    for (const m of middleware) this.#server.push(checked(m));
    this.#idle = this.#server.length === 0;
    this.#switches = this.#server.every((m) => typeof m === 'object' && m.enabled)
      ? this.#server.map((m) => (m as MiddlewareHooks).enabled!.bind(m))
      : undefined;
    this.#families = new Map();
    this.#members = new WeakMap();
  }

  /** Runs every server middleware's `flush` at once; resolves with what each one threw. */
  async flush(): Promise<unknown[]> {
    const flushing = this.#server.flatMap((m) =>
      typeof m === 'object' && typeof m.flush === 'function'
        ? [promised(() => (m as Required<Pick<MiddlewareHooks, 'flush'>>).flush())]
        : [],
    );
    const settled = await Promise.allSettled(flushing);
    return settled.flatMap((s) => (s.status === 'rejected' ? [s.reason] : []));
  }

  /** Checks the `@Use` middleware of members as they are registered (a bad one fails at startup). */
  static checkMembers(members: Iterable<{ readonly middleware: readonly unknown[] }>): void {
    for (const member of members) for (const m of member.middleware) checked(m);
  }

  /** The steps around `method` for server middleware (requests; `notification` for those). */
  steps(method: string, notification = false): readonly Step[] {
    const key = notification ? '\0notification' : method;
    let steps = this.#families.get(key);
    if (!steps) {
      steps = notification
        ? stepsOf(this.#server, 'notification')
        : stepsOf(this.#server, 'request', HOOK_OF_METHOD.get(method));
      this.#families.set(key, steps);
    }
    return steps;
  }

  /** The steps around a call of a member whose `@Use` middleware is `own`. */
  memberSteps(method: string, own: readonly unknown[]): readonly Step[] {
    if (own.length === 0) return this.steps(method);
    let steps = this.#members.get(own);
    if (!steps) {
      const hook = HOOK_OF_METHOD.get(method);
      steps = [...this.steps(method), ...stepsOf(own.map(checked), 'request', hook)];
      this.#members.set(own, steps);
    }
    return steps;
  }

  /**
   * Runs `inner` (the handler, reading `ctx.arguments`) under `steps`. Pre-serialised list pages
   * are decoded for middleware to read.
   */
  run(
    steps: readonly Step[],
    source: MessageSource,
    inner: (ctx: MiddlewareContext) => unknown,
    optional = false,
  ): Promise<unknown> {
    const ctx = new MiddlewareContext(source);
    const chain = optional ? steps.map((hook) => userStep(hook, true)) : adapted(steps);
    return promised(() => compose(chain, ctx, (c) => thenMaybe(inner(c), decoded)));
  }
}

/** A user hook as a chain step: `next` always a promise, an empty answer after `next()` kept. */
function userStep(hook: Hook<unknown>, optional: boolean): ChainStep {
  return (ctx, next) => {
    let nextResult: Promise<unknown> | undefined;
    const once = () => {
      if (nextResult) return Promise.reject(new Error('middleware called next() twice'));
      nextResult = promised(next);
      return nextResult;
    };
    return promised(() => hook(ctx, once)).then((value) => {
      if (value !== undefined) return value;
      if (nextResult) return nextResult;
      if (optional) return undefined;
      throw new Error(
        `middleware answered ${ctx.method} with nothing: return next() (or a result of its own)`,
      );
    });
  };
}

// Adapted once per list of hooks (lists are cached by the pipeline, so this is too).
const adaptedSteps = new WeakMap<readonly Step[], readonly ChainStep[]>();

function adapted(steps: readonly Step[]): readonly ChainStep[] {
  let chain = adaptedSteps.get(steps);
  if (!chain) {
    chain = steps.map((hook) => userStep(hook, false));
    adaptedSteps.set(steps, chain);
  }
  return chain;
}

function decoded(value: unknown): unknown {
  return value instanceof RawJson ? JSON.parse(value.json) : value;
}

function stepsOf(
  middleware: readonly Middleware[],
  general: 'request' | 'notification',
  hook?: Family,
): readonly Step[] {
  const steps: Step[] = [];
  for (const m of middleware) {
    if (typeof m === 'function') {
      steps.push(m);
      continue;
    }
    const outer = m[general] as Step | undefined;
    if (outer) steps.push(switchable(m, outer));
    const specific = hook && (m[hook] as Step | undefined);
    if (specific) steps.push(switchable(m, specific));
  }
  return steps.length === 0 ? NO_STEPS : Object.freeze(steps);
}

/** A hook bound to its middleware, skipped while the middleware says it is not `enabled`. */
function switchable(m: MiddlewareHooks, hook: Step): Step {
  const bound = hook.bind(m);
  const enabled = m.enabled?.bind(m);
  return enabled ? (ctx, next) => (enabled() ? bound(ctx, next) : next()) : bound;
}

const HOOKS = new Set<string>([
  'enabled',
  'flush',
  'request',
  'notification',
  ...[...HOOK_OF_METHOD.values()],
]);

function checked(m: unknown): Middleware {
  if (typeof m === 'function') return m as Middleware;
  if (typeof m === 'object' && m !== null) {
    // A plain object lists hooks only: a misspelt one would otherwise never run. (A class
    // instance may carry fields of its own; its hooks are its methods.)
    if (Object.getPrototypeOf(m) !== Object.prototype) return m as Middleware;
    for (const [key, value] of Object.entries(m)) {
      if (!HOOKS.has(key) || typeof value !== 'function')
        throw new TypeError(
          `middleware: unknown hook ${JSON.stringify(key)} (or not a function). Hooks: ${[...HOOKS].join(', ')}.`,
        );
    }
    return m as Middleware;
  }
  throw new TypeError(
    `middleware must be a function (ctx, next) or an object of hooks, got ${m === null ? 'null' : typeof m}.`,
  );
}

// A service of the server core, added to `ServerCore` from here: it is built on the era contract,
// which therefore cannot name it without an import cycle.
declare module '../server-core.js' {
  interface ServerCore {
    /** Middleware around requests (`server.use`, `createServer({ middleware })`). */
    readonly middleware: Pipeline;
  }
}
