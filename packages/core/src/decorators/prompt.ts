import type { Completer } from './completion.js';
import type { MemberScopeOptions } from './scopes.js';
import type { MemberLimitOptions } from './limits.js';
import { methodDecorator } from './method-decorator.js';
import type { SchemaOutput, TypedMethodDecorator } from './typed-method.js';
import type { Icon, SchemaSource } from './tool.js';

/** Options of {@link Prompt}. */
export interface PromptOptions extends MemberLimitOptions, MemberScopeOptions {
  /** Defaults to the method name. */
  name?: string;
  title?: string;
  description?: string;
  /** The arguments object (prompt arguments are strings on the wire; coerce in the schema). */
  input?: SchemaSource;
  /** Completion of arguments, by argument name (or use `@Arg(name, schema, { complete })`). */
  complete?: Record<string, Completer>;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

export const PROMPT_KIND = 'prompt';

/**
 * Exposes a method as an MCP prompt (a template clients offer as a slash command). Return a
 * string (one user message), a message, or a list of messages.
 *
 * @example
 * ```ts
 * class Prompts {
 *   @Prompt({ description: 'Write a commit message', input: z.object({ diff: z.string() }) })
 *   git_commit({ diff }: { diff: string }) {
 *     return `Write a concise commit message for:\n\n${diff}`;
 *   }
 * }
 * ```
 */
export function Prompt<TInput extends SchemaSource | undefined = undefined>(
  options: (Omit<PromptOptions, 'input'> & { input?: TInput }) | string = {},
): TypedMethodDecorator<SchemaOutput<TInput>> {
  const copy = typeof options === 'string' ? { description: options } : { ...options };
  return methodDecorator(PROMPT_KIND, '@Prompt', copy) as TypedMethodDecorator<
    SchemaOutput<TInput>
  >;
}
