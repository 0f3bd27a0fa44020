// Types of api.mjs, for the tests that import it.
export interface EntryPoint {
  /** The source file of the entry point. */
  readonly file: string;
  /** Its import path, e.g. `@mcp-fw/core/stdio`. */
  readonly name: string;
}
export function entryPoints(root?: string): EntryPoint[];
export function apiReference(options?: {
  root?: string;
  tsconfig?: string;
  out?: string;
  write?: boolean;
}): Promise<{ entries: EntryPoint[]; problems: string[] }>;
