import type { McpClient } from './client.js';
import type { CallOptions, CallToolResult } from './types.js';

/**
 * The shape `mcp-fw client-types` writes for a server: each tool's name mapped to its input
 * (from `inputSchema`) and output (from `outputSchema`, `undefined` when it lists none).
 */
export type ToolTypes = {
  readonly [tool: string]: { readonly input: unknown; readonly output: unknown };
};

/** A tool's result with `structuredContent` typed by its output schema. */
export type TypedCallResult<Output> = {
  readonly content: CallToolResult['content'];
  readonly structuredContent?: [Output] extends [undefined]
    ? Readonly<Record<string, unknown>>
    : Output;
  readonly isError?: boolean;
  readonly _meta?: Readonly<Record<string, unknown>>;
  readonly [member: string]: unknown;
};

/** One function per tool, its arguments and result typed. */
export type TypedTools<T extends ToolTypes> = {
  readonly [K in keyof T]: (
    args: T[K]['input'],
    options?: CallOptions,
  ) => Promise<TypedCallResult<T[K]['output']>>;
};

/** A client whose tools are functions checked at compile time. */
export interface TypedClient<T extends ToolTypes> {
  /** `tools.get_forecast({ latitude, longitude })` calls `get_forecast`. */
  readonly tools: TypedTools<T>;
  /** The client underneath, for everything else. */
  readonly client: McpClient;
}

/**
 * Wraps a connected client so that each tool is a function typed from the server's schemas
 * (the `Tools` interface `mcp-fw client-types` writes): a wrong argument is a compile error.
 * The types are a promise about the server; the server still checks the arguments.
 *
 * @example
 * ```ts
 * import { connect, typedClient } from '@mcp-fw/client';
 * import type { Tools } from './weather-tools.js'; // mcp-fw client-types <server> --out weather-tools.ts
 *
 * const weather = typedClient<Tools>(await connect('https://weather.example.com/mcp'));
 * const result = await weather.tools.get_forecast({ latitude: 59.9, longitude: 10.7 });
 * console.log(result.structuredContent?.temperature);
 * ```
 */
export function typedClient<T extends ToolTypes>(client: McpClient): TypedClient<T> {
  const tools = new Proxy({} as TypedTools<T>, {
    get: (_target, name) =>
      typeof name === 'string'
        ? (args: Record<string, unknown>, options?: CallOptions) =>
            client.callTool(name, args, options) as Promise<TypedCallResult<unknown>>
        : undefined,
  });
  return { tools, client };
}
