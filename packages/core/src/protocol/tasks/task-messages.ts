// The messages instances send each other about a task, on its instance's bus topic.
import { TERMINAL, type TaskSnapshot } from './task-snapshot.js';

/**
 * What other instances send the instance running a task, on its topic ({@link topicOf}): the
 * answers to its questions, or the end they wrote for it (a cancel, or a failure when they took
 * the instance for dead).
 */
export type TaskMessage =
  | { readonly k: 'update'; readonly id: string; readonly r: Record<string, unknown> }
  | { readonly k: 'end'; readonly id: string; readonly s: TaskSnapshot };

/** The bus topic of the tasks running on instance `node`. */
export const topicOf = (node: string): string => `task:${node}`;

/** A message off the bus, if it is a well-formed {@link TaskMessage}. */
export function readTaskMessage(raw: string): TaskMessage | undefined {
  let message: Partial<{ k: unknown; id: unknown; r: unknown; s: { status?: unknown } }>;
  try {
    message = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null || typeof message.id !== 'string')
    return undefined;
  if (message.k === 'update' && typeof message.r === 'object' && message.r !== null)
    return message as TaskMessage;
  if (message.k === 'end' && TERMINAL.has(message.s?.status as TaskSnapshot['status']))
    return message as TaskMessage;
  return undefined;
}
