// The questions a task running here puts to its client: asked, relayed on the session, answered.
import { LimitError } from '../guards/index.js';
import type { Entry } from './task-entry.js';
import type { TaskStatus } from './task-snapshot.js';
import type { TaskRelay } from './task-work.js';

/** Moves the entry to `status`: a new snapshot, told and written (see `LocalTasks`). */
type Change = (status: TaskStatus) => void;

/**
 * Puts a question keyed `key` in the entry's `inputRequests` (`input_required` until answered)
 * and resolves with the answer; refused when the key was used or `max` questions wait already.
 */
export function ask(
  entry: Entry,
  key: string,
  method: string,
  params: unknown,
  max: number,
  change: Change,
): Promise<unknown> {
  if (entry.abort.signal.aborted) return Promise.reject(entry.abort.signal.reason);
  if (entry.usedKeys.has(key)) {
    return Promise.reject(
      new Error(
        `the task already asked a question keyed "${key}": keys are used once per task; give each question its own key`,
      ),
    );
  }
  if (entry.questions.size >= max) {
    return Promise.reject(
      new LimitError(
        'tasks',
        `${method} refused: the task already waits for ${entry.questions.size} answers (limits.tasks.maxInputRequestsPerTask); await them first`,
      ),
    );
  }
  entry.usedKeys.add(key);
  return new Promise((resolve, reject) => {
    entry.questions.set(key, { method, params, answer: resolve, fail: reject });
    change('input_required');
  });
}

/** Sends a question through `relay` (2025-11-25), the task `input_required` while it waits. */
export async function relayed(
  entry: Entry,
  relay: TaskRelay,
  method: string,
  params: unknown,
  change: Change,
): Promise<unknown> {
  if (entry.abort.signal.aborted) throw entry.abort.signal.reason;
  entry.relaying++;
  change('input_required');
  try {
    return await relay(method, params, entry.snapshot.taskId, entry.abort.signal);
  } finally {
    entry.relaying--;
    const idle = entry.relaying === 0 && entry.questions.size === 0;
    if (entry.snapshot.status === 'input_required' && idle) change('working');
  }
}

/**
 * Answers the entry's waiting questions (keys not waiting are ignored); back to `working` when
 * none is left, else `input_required` with the questions still waiting.
 */
export function answer(
  entry: Entry,
  responses: Readonly<Record<string, unknown>>,
  change: Change,
): void {
  for (const [key, value] of Object.entries(responses)) {
    const question = entry.questions.get(key);
    if (!question) continue;
    entry.questions.delete(key);
    question.answer(value);
  }
  if (
    entry.snapshot.status === 'input_required' &&
    entry.questions.size === 0 &&
    entry.relaying === 0
  )
    change('working');
  else if (entry.snapshot.status === 'input_required') change('input_required');
}
