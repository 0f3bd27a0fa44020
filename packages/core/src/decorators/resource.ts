import type { Completer } from './completion.js';
import type { MemberScopeOptions } from './scopes.js';
import type { MemberLimitOptions } from './limits.js';
import { methodDecorator, type MethodDecorator } from './method-decorator.js';
import type { Icon, SchemaSource } from './tool.js';

/** How a client may present a resource (MCP `Annotations`). */
export interface ResourceAnnotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

/** One concrete resource, as listed by a template's `list` handler or `resources/list`. */
export interface ResourceEntry {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  annotations?: ResourceAnnotations;
  _meta?: Record<string, unknown>;
}

/** Options of {@link Resource}. */
export interface ResourceOptions extends MemberLimitOptions, MemberScopeOptions {
  /** Defaults to the method name. */
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Size in bytes, if known. */
  size?: number;
  icons?: Icon[];
  annotations?: ResourceAnnotations;
  _meta?: Record<string, unknown>;
  /** Schema of the template variables (all strings by default); zod coercion works here. */
  input?: SchemaSource;
  /** Completion of template variables, by variable name. */
  complete?: Record<string, Completer>;
  /**
   * For templates: enumerates concrete resources for `resources/list`. A method name of the same
   * class, or a function called with the instance as `this`.
   */
  list?:
    | string
    // biome-ignore lint/suspicious/noExplicitAny: `this` is the instance of a class these options cannot name; `unknown` or `never` would reject `function (this: MyClass)` or `this.x` in an unannotated function
    | ((this: any, ctx: unknown) => readonly ResourceEntry[] | Promise<readonly ResourceEntry[]>);
}

export const RESOURCE_KIND = 'resource';

/**
 * Exposes a method as an MCP resource. A URI with `{variables}` (RFC 6570) makes it a resource
 * template: the method receives the decoded, validated variables and the {@link Context}.
 * Return a string (text), bytes (a base64 blob), a contents object, or an array of them.
 *
 * @example
 * ```ts
 * class Logs {
 *   @Resource('logs://app/today', { mimeType: 'text/plain' })
 *   today() { return readFile('today.log', 'utf8'); }
 *
 *   @Resource('logs://app/{day}', { mimeType: 'text/plain', complete: { day: ['mon', 'tue'] } })
 *   byDay({ day }: { day: string }) { return readFile(`${day}.log`, 'utf8'); }
 * }
 * ```
 */
export function Resource(uri: string, options: ResourceOptions = {}): MethodDecorator {
  return methodDecorator(RESOURCE_KIND, '@Resource', { ...options, uri });
}
