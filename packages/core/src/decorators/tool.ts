import type { JsonSchema, StandardSchemaV1 } from '../schema/index.js';
import type { MemberScopeOptions } from './scopes.js';
import type { TaskMode, TaskOptions } from './task-option.js';
import type { MemberLimitOptions, RateLimit } from './limits.js';
import { methodDecorator } from './method-decorator.js';
import type { SchemaOutput, TypedMethodDecorator } from './typed-method.js';

/** A zod schema, any Standard Schema, or a JSON Schema object. */
export type SchemaSource = StandardSchemaV1 | JsonSchema;

/** Hints about a tool's behaviour (MCP `ToolAnnotations`); clients must not trust them blindly. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** An icon a client may show next to the tool (MCP `Icon`, 2025-11-25 and later). */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** Options of {@link Tool}. Every field is optional. */
export interface ToolOptions extends MemberLimitOptions, MemberScopeOptions {
  /** The tool's name on the wire; defaults to the method name. 1–128 of `A-Za-z0-9_-.`. */
  name?: string;
  /** A human-readable name (2025-06-18 and later). */
  title?: string;
  /** What the tool does, for the model. */
  description?: string;
  /** The arguments object: a zod object, any Standard Schema, or a JSON Schema object. */
  input?: SchemaSource;
  /** The structured result; when set, results are validated and sent as `structuredContent`. */
  output?: SchemaSource;
  /** Whether calls may run as tasks the client polls (default `'forbidden'`); see {@link TaskOptions}. */
  task?: TaskMode | TaskOptions;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  /**
   * The MCP Apps view the host renders this tool's result in: its `ui://` URI, or
   * `{ resource, visibility }` (`visibility: ['app']` for a tool only the view calls). Sent as
   * `_meta.ui` (and the older flat `_meta["ui/resourceUri"]`); see `View`.
   */
  ui?: ToolUi;
  /** Calls allowed per time window; `false` turns the server default off for this tool. */
  rateLimit?: RateLimit | false;
  /**
   * This tool's version (`'2'`, `'1.3'`), sent as `_meta.version`. Several versions of one name
   * may be declared side by side: clients are served the newest (`1.10` after `1.9`), and
   * `server.filter({ exclude: { versions: ['2'] } })` serves an older one — on a server of its
   * own, e.g. a second endpoint for clients not yet moved.
   *
   * @example
   * ```ts
   * @Tool({ name: 'search', version: '1', deprecated: { use: 'search (version 2)' } }) searchV1() {}
   * @Tool({ name: 'search', version: '2' }) searchV2() {}
   * ```
   */
  version?: string;
  /**
   * Marks the tool deprecated: `_meta.deprecated` carries `{ message, sunset, use }` and the
   * description starts with "Deprecated" and the message, so the model prefers the replacement.
   */
  deprecated?: true | string | ToolDeprecation;
}

/** What {@link ToolOptions.deprecated} says: why, until when, and what to use instead. */
export interface ToolDeprecation {
  /** Why, or what to do instead, in words. */
  message?: string;
  /** The day the tool is removed, as year-month-day (ISO 8601). */
  sunset?: string;
  /** The tool to call instead. */
  use?: string;
}

/** Which MCP Apps view a tool renders its result in: a `ui://` URI, or the URI and visibility. */
export type ToolUi = string | ToolUiOptions;

/** The long form of {@link ToolUi}. */
export interface ToolUiOptions {
  /** The `ui://` URI of a view declared with {@link View}. */
  resource: string;
  /**
   * Who may call the tool: `'model'` (the model, as usual) and/or `'app'` (the view, through
   * the host). Default `['model', 'app']`; `['app']` for a tool only the view calls.
   */
  visibility?: ('model' | 'app')[];
}

export const TOOL_KIND = 'tool';

/**
 * Exposes a method as an MCP tool. The method receives the validated arguments object and the
 * request's {@link Context} — or, with {@link Arg} parameters, those parameters followed by the
 * context. A string is shorthand for `{ description }`.
 *
 * Works with `experimentalDecorators` and with standard (TC39) decorators.
 *
 * @example
 * ```ts
 * class Calculator {
 *   @Tool({ description: 'Adds two numbers', input: z.object({ a: z.number(), b: z.number() }) })
 *   add({ a, b }: { a: number; b: number }) {
 *     return String(a + b);
 *   }
 *
 *   @Tool({ description: 'Factorises a number', input: z.object({ n: z.number() }), timeoutMs: 5_000, rateLimit: { max: 10, perMs: 60_000 } })
 *   factor({ n }: { n: number }, ctx: Context) {
 *     return factorise(n, ctx.signal); // stop when ctx.signal aborts
 *   }
 * }
 * ```
 */
export function Tool<TInput extends SchemaSource | undefined = undefined>(
  options: (Omit<ToolOptions, 'input'> & { input?: TInput }) | string = {},
): TypedMethodDecorator<SchemaOutput<TInput>> {
  const copy = typeof options === 'string' ? { description: options } : { ...options };
  return methodDecorator(TOOL_KIND, '@Tool', copy) as TypedMethodDecorator<SchemaOutput<TInput>>;
}
