import type { ResolvedConfig } from './ts-config.js';

// TypeScript's decorator diagnostics: TS1206 "Decorators are not valid here." (a parameter
// decorator such as @Arg under standard decorators), TS1207 (both accessors decorated),
// TS1236–TS1241 "Unable to resolve signature of … decorator", TS1249 (a decorator on an
// overload), TS1270/TS1271 (a decorator's return type).
const DECORATOR_ERROR = /error TS(1206|1207|1236|1237|1238|1239|1240|1241|1249|1270|1271):/;

/** What fixes decorator errors in a project compiled without `experimentalDecorators`. */
export const DECORATORS_FIX =
  'Set "experimentalDecorators": true and "emitDecoratorMetadata": true in the compilerOptions of tsconfig.json: ' +
  "@Arg and the other parameter decorators exist only with TypeScript's legacy decorators (without them TypeScript " +
  'reports TS1206 and drops the decorator), and the metadata gives untyped arguments their schema.';

/** Whether tsc's `output` has decorator errors. */
export function hasDecoratorErrors(output: string): boolean {
  return DECORATOR_ERROR.test(output);
}

/**
 * The fix for decorator errors in `output` when the project has `experimentalDecorators` off
 * (the flag is then what fixes them), else undefined.
 */
export function decoratorFix(
  output: string,
  config: Pick<ResolvedConfig, 'experimentalDecorators'>,
): string | undefined {
  return !config.experimentalDecorators && hasDecoratorErrors(output) ? DECORATORS_FIX : undefined;
}
