/** A JSON Schema document, as plain data. */
export type JsonSchema = { [key: string]: unknown };

/**
 * What the TypeScript signature of one decorated method says. The same shape as
 * `TypeSchemaEntry` in `@mcp-fw/core`, which reads it at startup.
 */
export interface MemberSchemas {
  /** The arguments object's schema; absent when the decorator declares one (`input`, `@Arg`). */
  input?: JsonSchema;
  /** From the return type, for tools that return an object; absent when `output` is declared. */
  output?: JsonSchema;
  /** The method's JSDoc summary. */
  description?: string;
  /**
   * Argument names in parameter order, when the method takes its arguments as parameters
   * (`get_forecast(latitude: number, longitude: number, ctx: Context)`); absent when it takes
   * one destructured arguments object (`add({ a, b }: { a: number; b: number })`).
   */
  params?: string[];
  /**
   * Paths of the `Date` values in the arguments object (property names, `'*'` for every item of
   * an array or record, tuple indexes): JSON carries them as date-time strings, and the server
   * hands the method `Date`s.
   */
  dates?: (string | number)[][];
}

/** Schemas per class name, then per method name: what `createServer({ schemas })` takes. */
export type SchemaManifest = Record<string, Record<string, MemberSchemas>>;
