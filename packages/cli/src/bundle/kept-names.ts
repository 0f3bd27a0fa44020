// esbuild's keepNames follows every named function and class with `__name(fn, "fn")`, which
// redefines its `name` property at load time, renamed or not. Only a binding esbuild renamed
// (two modules' `parse` become `parse` and `parse2`) needs it; for the others the call restates
// the name the function already has, and a bundled server ran some 1,300 of them before
// answering initialize (about 1 % of its start-up instructions). Those statements are blanked
// with spaces of the same length, so the source map stays exact.
//
// Only where the call is a statement of its own or leads a comma sequence that is one (after
// `;`, `{`, `}` or a line break, before `;`, `,` or `}`): there its value is unused. A call
// inside arguments, an array or a returned sequence is left as it is.
const IDENTITY = /(?<=[;{}\n])__name\(([A-Za-z_$][\w$]*),"([\w$]+)"\)(?:[;,]|(?=\}))/g;

/**
 * `source` (esbuild output with `keepNames`) without the `__name(x,"x");` statements that
 * restate a function's or class's own name; renamed bindings keep theirs. Unchanged when the
 * helper is not esbuild's `__name` (no such helper defined in `source`).
 */
export function dropRestatedNames(source: string): string {
  if (!source.includes('var __name=')) return source;
  return source.replace(IDENTITY, (statement, binding: string, name: string) =>
    binding === name ? ' '.repeat(statement.length) : statement,
  );
}
