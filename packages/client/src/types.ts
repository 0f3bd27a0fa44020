// The shapes the client reads from servers and hands to its callers. Typed from the MCP schema
// but open (`[member: string]: unknown`): a newer server may send more.

import type { Abortable } from '@mcp-fw/core/transport';

/** A JSON Schema as a server sent it. */
export interface JsonSchemaObject {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchemaObject>>;
  readonly required?: readonly string[];
  readonly [keyword: string]: unknown;
}

/** One entry of `tools/list`. */
export interface Tool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonSchemaObject;
  readonly outputSchema?: JsonSchemaObject;
  readonly annotations?: Readonly<Record<string, unknown>>;
  readonly _meta?: Readonly<Record<string, unknown>>;
  readonly [member: string]: unknown;
}

/** One content block of a tool result or prompt message. */
export interface ContentBlock {
  readonly type: string;
  readonly text?: string;
  readonly data?: string;
  readonly mimeType?: string;
  readonly uri?: string;
  readonly resource?: ResourceContents;
  readonly [member: string]: unknown;
}

/** A `tools/call` result. */
export interface CallToolResult {
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
  readonly isError?: boolean;
  readonly _meta?: Readonly<Record<string, unknown>>;
  readonly [member: string]: unknown;
}

/** One entry of `resources/list`. */
export interface Resource {
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly [member: string]: unknown;
}

/** One entry of `resources/templates/list`. */
export interface ResourceTemplate {
  readonly uriTemplate: string;
  readonly name: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly [member: string]: unknown;
}

/** One item of a `resources/read` result. */
export interface ResourceContents {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: string;
  readonly [member: string]: unknown;
}

/** A `resources/read` result. */
export interface ReadResourceResult {
  readonly contents: readonly ResourceContents[];
  readonly [member: string]: unknown;
}

/** One entry of `prompts/list`. */
export interface Prompt {
  readonly name: string;
  readonly description?: string;
  readonly arguments?: readonly { name: string; description?: string; required?: boolean }[];
  readonly [member: string]: unknown;
}

/** A `prompts/get` result. */
export interface GetPromptResult {
  readonly description?: string;
  readonly messages: readonly { role: string; content: ContentBlock }[];
  readonly [member: string]: unknown;
}

/** What `completion/complete` completes: a prompt's argument or a resource template's variable. */
export type CompletionRef =
  | { readonly type: 'ref/prompt'; readonly name: string }
  | { readonly type: 'ref/resource'; readonly uri: string };

/** A `completion/complete` result. */
export interface CompleteResult {
  readonly completion: {
    readonly values: readonly string[];
    readonly total?: number;
    readonly hasMore?: boolean;
  };
  readonly [member: string]: unknown;
}

/** A `notifications/progress` as a call's `onProgress` receives it. */
export interface Progress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** A log message (`notifications/message`). */
export interface LogMessage {
  readonly level: string;
  readonly logger?: string;
  readonly data: unknown;
}

/** What the server knows of itself: its `initialize` or `server/discover` result, read. */
export interface ServerDescription {
  readonly serverInfo?: {
    readonly name: string;
    readonly version: string;
    readonly [k: string]: unknown;
  };
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly instructions?: string;
}

/** `elicitation/create` params: a form (`requestedSchema`) or, from 2025-11-25, a URL to open. */
export interface ElicitRequest {
  readonly mode?: 'form' | 'url';
  readonly message: string;
  readonly requestedSchema?: JsonSchemaObject;
  readonly url?: string;
  readonly elicitationId?: string;
  readonly [member: string]: unknown;
}

/** The answer to an elicitation. */
export interface ElicitResult {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Readonly<Record<string, unknown>>;
  readonly [member: string]: unknown;
}

/** A root the client exposes (`roots/list`). */
export interface Root {
  readonly uri: string;
  readonly name?: string;
  readonly [member: string]: unknown;
}

/** What an input handler learns about the question besides its params. */
export interface InputInfo {
  /** How the question came: a legacy server→client request, or a 2026-07-28 input round. */
  readonly era: Era;
  /** Aborted when the server cancels its request (legacy) or the call is abandoned. */
  readonly signal?: AbortSignal;
  /**
   * The question's key: its key in `inputRequests` (2026-07-28), or the key an mcp-fw server's
   * handler gave a legacy request (`_meta["dev.mcp-fw/inputKey"]`); a gateway asks its own
   * client under it.
   */
  readonly key?: string;
}

/**
 * One handler per kind of question a server asks, serving both the legacy server→client
 * requests and the 2026-07-28 `input_required` rounds. Giving a handler declares its capability.
 */
export interface InputHandlers {
  /** `elicitation/create`: a form to fill in or a URL to visit. */
  readonly elicitation?: (
    request: ElicitRequest,
    info: InputInfo,
  ) => ElicitResult | Promise<ElicitResult>;
  /** `sampling/createMessage`: the result of asking your model (`{ role, content, model, … }`). */
  readonly sampling?: (
    request: Readonly<Record<string, unknown>>,
    info: InputInfo,
  ) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** `roots/list`: the roots to expose. */
  readonly roots?: (info: InputInfo) => readonly Root[] | Promise<readonly Root[]>;
}

/** The two protocol eras: `initialize` sessions (2024-11-05 … 2025-11-25) and stateless 2026-07-28. */
export type Era = 'legacy' | 'modern';

/** Options every call takes. */
export interface CallOptions {
  /** Aborts the call: the client tells the server to stop, and the call rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * Aborts the call as `signal` does, when this says it is aborted (core's `InboundRequest`, a
   * proxy's pass-through call): for a call made on behalf of another request, without an
   * `AbortSignal` built for it.
   */
  readonly abortWith?: Abortable;
  /** This call's timeout in ms (default: the client's `timeoutMs`). */
  readonly timeoutMs?: number;
  /** Called for each `notifications/progress` of this call. */
  readonly onProgress?: (progress: Progress) => void;
  /** Extra `params._meta` entries. */
  readonly _meta?: Readonly<Record<string, unknown>>;
  /**
   * `callTool` only: whether the call may run as a task. By default a tool whose
   * `execution.taskSupport` is `optional` or `required` runs as one where the server offers
   * tasks (2025-11-25 `params.task`; 2026-07-28 the tasks extension, where the server decides);
   * `false` asks for none. Either way a task is followed to the tool's result.
   */
  readonly task?: boolean;
  /** `callTool` only: each change of the task's status or status message, while it runs. */
  readonly onTask?: (task: TaskState) => void;
}

/** Where a task is in its life. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as `onTask` hears of it: its status and the server's status message (its progress). */
export interface TaskState {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
}
