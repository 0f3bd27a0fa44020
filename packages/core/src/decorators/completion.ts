/**
 * Completion of one argument: a static list (filtered by prefix for you) or a function given the
 * partial value and the arguments the user already filled in.
 *
 * @example
 * ```ts
 * const languages: Completer = ['typescript', 'python', 'rust'];
 * const branches: Completer = async (value, { arguments: args }) => git.branches(args.repo, value);
 * ```
 */
export type Completer =
  | readonly string[]
  | ((
      value: string,
      context: { arguments: Record<string, string> },
    ) => readonly string[] | Promise<readonly string[]>);
