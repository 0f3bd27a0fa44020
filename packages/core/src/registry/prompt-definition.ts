import type { Completer, Icon } from '../decorators/index.js';
import type { Validator } from '../schema/index.js';
import type { MemberLimits } from './member-limits.js';

/** One argument of a prompt, as `prompts/list` describes it. */
export interface PromptArgument {
  readonly name: string;
  readonly description?: string;
  readonly required?: boolean;
}

/** A prompt resolved from its decorator. */
export interface PromptDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly icons?: readonly Icon[];
  readonly _meta?: Record<string, unknown>;
  readonly arguments: readonly PromptArgument[];
  readonly origin: string;
  readonly validateArguments: Validator;
  readonly completers: ReadonlyMap<string, Completer>;
  /** Declared `timeoutMs` (the server's default applies where absent). */
  readonly limits: MemberLimits;
  /** OAuth scopes a caller needs (own `scopes`, else the class's `@Scopes`; empty: none). */
  readonly scopes: readonly string[];
  /** Middleware from `@Use` on the class and the member, outermost first (run by the protocol layer). */
  readonly middleware: readonly unknown[];
  readonly handler: (args: unknown, ctx: unknown) => unknown;
}
