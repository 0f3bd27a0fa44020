import type { AudioContent, ImageContent, TextContent } from '../registry/index.js';

/** A tool call the client's model asked for (sampling with tools, 2025-11-25 and later). */
export interface SampledToolUse {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** The result of a tool call, as a block of a sampled message (2025-11-25 and later). */
export interface SampledToolResult {
  type: 'tool_result';
  toolUseId: string;
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** One block of what the client's model answered. */
export type SampledContent =
  | TextContent
  | ImageContent
  | AudioContent
  | SampledToolUse
  | SampledToolResult;

/**
 * What `ctx.sample` resolves to: the client's `sampling/createMessage` result. `content` is one
 * block, or (from 2025-11-25) a list of them, so read it through `[result.content].flat()`.
 *
 * @example
 * ```ts
 * const result = await ctx.sample('Name a prime number');
 * const text = [result.content].flat().flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
 * ```
 */
export interface SampleResult {
  role: 'user' | 'assistant';
  content: SampledContent | SampledContent[];
  /** The model that answered, as the client names it. */
  model: string;
  /** `endTurn`, `stopSequence`, `maxTokens`, `toolUse`, or a provider's own reason. */
  stopReason?: string;
  _meta?: Record<string, unknown>;
}
