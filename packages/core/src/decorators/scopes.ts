const CLASS_SCOPES = Symbol.for('mcp-fw.class-scopes');

/** The OAuth scopes a member declares; on HTTP servers with an `authorize` option, callers need all of them. */
export interface MemberScopeOptions {
  /**
   * OAuth scopes a caller's token must carry to use this member (all of them). Overrides the
   * class default set with {@link Scopes}; `[]` makes the member open to any authenticated caller.
   */
  scopes?: readonly string[];
}

/**
 * The default `scopes` of every `@Tool`, `@Resource` and `@Prompt` of a class (a member's own
 * `scopes` option replaces it). Subclasses inherit it. Works with `experimentalDecorators` and
 * with standard decorators.
 *
 * @example
 * ```ts
 * @Scopes('notes:read')
 * class Notes {
 *   @Tool('Lists notes')
 *   list() { return '[]'; }
 *   @Tool({ description: 'Adds a note', scopes: ['notes:write'] })
 *   add() { return 'ok'; }
 * }
 * ```
 */
export function Scopes(
  ...scopes: string[]
): <T extends Function>(target: T, context?: unknown) => void {
  return (target) => {
    Object.defineProperty(target, CLASS_SCOPES, {
      value: Object.freeze([...scopes]),
      enumerable: false,
      configurable: true,
    });
  };
}

/** A class's default scopes (own or inherited), if it declared any. */
export function classScopes(ctor: Function): readonly string[] | undefined {
  return (ctor as unknown as Record<symbol, readonly string[] | undefined>)[CLASS_SCOPES];
}
