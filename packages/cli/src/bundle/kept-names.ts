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

// A class keeps its name through a static block that esbuild puts first in its body. A class
// declaration (`class X{`) has its name already, and so has a class that is the value of
// `X=class{` (also in `var X=class{`): JavaScript names an anonymous class after the plain
// variable it is assigned to (not after `a.X`, hence the look-behind). Those blocks restate
// the name; a bundled zod server ran about 150 of them before answering initialize. (Were the
// class to define a static `name` method, the block would have replaced it; without the block
// the method stays, as it does unbundled.)
const CLASS_NAME =
  /(?:(?<![\w$.])([A-Za-z_$][\w$]*)=class|\bclass ([A-Za-z_$][\w$]*))((?:\s+extends\s+[\w$.]+)?\{)(static\{__name\(this,"([\w$]+)"\)\})/g;

// esbuild's helper as minified output spells it; a package bundled by esbuild before (tsup
// output) carries the same one in its own scope.
const HELPER = 'var __name=(target,value)=>__defProp(target,"name",{value,configurable:!0});';
const ANY_DEFINITION = /\b(?:var|let|const)\s+__name\b|\bfunction\s+__name\b|\b__name\s*=[^=]/g;

/**
 * `source` (esbuild output with `keepNames`) without the `__name(x,"x");` statements and the
 * `static{__name(this,"X")}` blocks that restate a function's or class's own name; renamed
 * bindings keep theirs. Unchanged unless
 * every `__name` the source defines is esbuild's helper: someone else's might do more.
 */
export function dropRestatedNames(source: string): string {
  const helpers = source.split(HELPER).length - 1;
  if (helpers === 0 || source.match(ANY_DEFINITION)?.length !== helpers) return source;
  return source
    .replace(IDENTITY, (statement, binding: string, name: string) =>
      binding === name ? ' '.repeat(statement.length) : statement,
    )
    .replace(
      CLASS_NAME,
      (
        whole,
        assigned: string | undefined,
        declared: string | undefined,
        head: string,
        block: string,
        name: string,
      ) =>
        (assigned ?? declared) === name
          ? `${whole.slice(0, whole.length - head.length - block.length)}${head}${' '.repeat(block.length)}`
          : whole,
    );
}
