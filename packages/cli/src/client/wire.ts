// What a server sends, as the CLI reads it. Typed from the MCP schema but not checked at run
// time: the CLI shows what it got, and reads every member as possibly absent.

/** A JSON Schema as a server lists it (the members the CLI reads). */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly items?: JsonSchema;
  readonly description?: string;
  readonly [keyword: string]: unknown;
}

/** One entry of `tools/list`. */
export interface ListedTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly execution?: { readonly taskSupport?: string };
  readonly [member: string]: unknown;
}

/** One entry of `prompts/list`. */
export interface ListedPrompt {
  readonly name: string;
  readonly description?: string;
  readonly arguments?: readonly {
    readonly name: string;
    readonly description?: string;
    readonly required?: boolean;
  }[];
  readonly [member: string]: unknown;
}

/** One entry of `resources/list`. */
export interface ListedResource {
  readonly uri: string;
  readonly name?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly [member: string]: unknown;
}

/** One entry of `resources/templates/list`. */
export interface ListedTemplate {
  readonly uriTemplate: string;
  readonly name?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly [member: string]: unknown;
}

/** The `initialize` result (the members the CLI reads). */
export interface InitializeResult {
  readonly serverInfo?: { readonly name?: string; readonly version?: string };
  readonly instructions?: string;
  readonly capabilities?: Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>;
  readonly [member: string]: unknown;
}

/** One content block of a tool result. */
export interface ContentBlock {
  readonly type?: string;
  readonly text?: string;
  readonly mimeType?: string;
  readonly data?: string;
  readonly uri?: string;
  readonly name?: string;
  readonly resource?: { readonly uri?: string; readonly text?: string };
  readonly [member: string]: unknown;
}

/** A `tools/call` result, or a task's `CreateTaskResult` before it is followed. */
export interface CallResult {
  readonly content?: readonly ContentBlock[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly task?: {
    readonly taskId: string;
    readonly status: string;
    readonly statusMessage?: string;
    readonly pollInterval?: number;
  };
  readonly _meta?: Readonly<Record<string, unknown>>;
  readonly [member: string]: unknown;
}
