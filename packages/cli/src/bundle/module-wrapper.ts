// The launcher compiles a CommonJS file inside Node's module wrapper. Wrapping its text at run
// time (`Module.wrap(source)`) makes a new string V8 flattens into a copy as large as the file
// before compiling it: fresh memory on every start. So the build writes the wrapper into the file,
// and the launcher compiles the text as read. The file stays an ordinary CommonJS module for
// `require` (Node 22's compile cache, MCP_FW_CODE_CACHE=0, an MCPB host running the bundle):
// inside Node's own wrapper `module` and `arguments` exist, and the function is applied to them;
// compiled at the top level of a script (the launcher), where neither exists, the script's value
// is the function itself, which the launcher calls as Node would.
const HEAD = '(function (exports, require, module, __filename, __dirname) {';
const TAIL =
  '\n})[typeof module === "object" && typeof arguments === "object" ? "apply" : "valueOf"](this, typeof arguments === "object" ? arguments : void 0);\n';
const SOURCE_MAP_COMMENT = /\n\/\/# sourceMappingURL=[^\n]*\n?$/;

/**
 * `source` (esbuild's CommonJS output) with Node's module wrapper written around it, the source
 * map comment kept last; undefined for a file that starts with a hashbang, which must stay first.
 * Line 1 is esbuild's banner, which maps to nothing, so the source map stays exact.
 */
export function withModuleWrapper(source: string): string | undefined {
  if (source.startsWith('#!')) return undefined;
  const comment = SOURCE_MAP_COMMENT.exec(source);
  const body = comment ? source.slice(0, comment.index) : source;
  return `${HEAD}${body}${TAIL}${comment ? comment[0].slice(1) : ''}`;
}
