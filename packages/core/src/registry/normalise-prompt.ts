import { isContentBlock, type ContentBlock } from './content.js';

/** One message of a prompt: a role and its content. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

/** A whole prompt result, as a prompt handler may return it. */
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Record<string, unknown>;
}

/**
 * Turns what a prompt handler returned into messages: a string or a content block is one user
 * message, `{role, content}` is a message, arrays are several, `{messages}` passes through.
 */
export function normalisePrompt(value: unknown, description: string | undefined): GetPromptResult {
  if (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as GetPromptResult).messages)
  ) {
    const result = value as GetPromptResult;
    return result.description === undefined && description !== undefined
      ? { description, ...result }
      : result;
  }
  const messages = (Array.isArray(value) ? value : [value]).map(toMessage);
  return description === undefined ? { messages } : { description, messages };
}

function toMessage(value: unknown): PromptMessage {
  if (typeof value === 'string') return { role: 'user', content: { type: 'text', text: value } };
  if (isContentBlock(value)) return { role: 'user', content: value };
  const m = value as PromptMessage;
  if (typeof m === 'object' && m !== null && (m.role === 'user' || m.role === 'assistant')) {
    const content =
      typeof m.content === 'string' ? { type: 'text' as const, text: m.content } : m.content;
    if (isContentBlock(content)) return { ...m, content };
  }
  throw new TypeError(
    `a prompt message must be a string, a content block or { role, content }; got ${JSON.stringify(value)}`,
  );
}
