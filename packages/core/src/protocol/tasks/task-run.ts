// The input run behind a task: the handler context's view of a task.
import { InputRun } from '../input/input-run.js';
import type { InputRuns } from '../input/input-runs.js';
import type { RequestRecord } from '../request-record.js';
import type { TaskWork } from './task-work.js';

/**
 * The call behind a task, as the handler's context sees it: an input run whose questions go to
 * the task (`input_required` with `inputRequests`, answered by `tasks/update`) instead of an
 * input round of the request, and whose signal is the task's (cancel, expiry), not the request's,
 * which ended when the task was created.
 */
export class TaskRun extends InputRun {
  readonly #task: TaskWork;

  constructor(record: RequestRecord, runs: InputRuns, task: TaskWork) {
    super(undefined, record, { replay: false }, runs);
    this.#task = task;
  }

  override get detached(): boolean {
    return true;
  }

  override get signal(): AbortSignal {
    return this.#task.signal;
  }

  override noteProgress(message: string): void {
    this.#task.setStatusMessage(message);
  }

  override ask(method: string, params: unknown, key?: string): Promise<unknown> {
    return this.#task.ask(method, params, key);
  }
}
