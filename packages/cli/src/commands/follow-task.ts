import type { Engine } from '@mcp-fw/core/transport';
import type { TaskDisplay, TaskState } from '../output/task-display.js';

// The _meta key a task's requests and its result carry (2025-11-25): protocol, not the tool's.
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

// Bounds on the server's pollInterval: no busy loop, and no minute-long silence either.
const MIN_POLL_MS = 10;
const MAX_POLL_MS = 30_000;

/** How following a task ended: with the tool's result, or cancelled by Ctrl-C. */
export type FollowOutcome =
  | { readonly result: Record<string, unknown> }
  | { readonly interrupted: true };

/**
 * Follows one task of `mcp-fw call` (2025-11-25) to its end: waits on `tasks/result` while
 * polling `tasks/get` at the task's `pollInterval` for the display, and cancels it
 * (`tasks/cancel`) on Ctrl-C. Questions and progress of the task reach the CLI's client
 * handlers meanwhile; those hand them here ({@link question}, {@link statusNotification}).
 */
export class TaskFollower {
  readonly #peer: Engine;
  readonly #display: TaskDisplay;
  #taskId?: string;
  // The task's first question can overtake the answer that names the task: it waits for it.
  #known!: (taskId: string | undefined) => void;
  readonly #named = new Promise<string | undefined>((resolve) => {
    this.#known = resolve;
  });
  // Polls may overlap (a question refreshes at once); only the newest answer is shown.
  #asked = 0;
  #shown = 0;

  constructor(peer: Engine, display: TaskDisplay) {
    this.#peer = peer;
    this.#display = display;
  }

  /**
   * A server→client request arrived: when it belongs to the followed task, the task waits for
   * input now, so its status is read before the question is answered (a quick answer would
   * hide it from the next poll).
   */
  async question(params: Record<string, unknown> | undefined): Promise<void> {
    const related = (params?._meta as Record<string, { taskId?: unknown }> | undefined)?.[
      RELATED_TASK
    ];
    if (related?.taskId === undefined) return;
    if ((await this.#named) === related.taskId) await this.#refresh();
  }

  /** No task will be followed (the call failed, or was answered at once). */
  stop(): void {
    this.#known(undefined);
  }

  /** `notifications/tasks/status`, which a server may send instead of being polled. */
  statusNotification(params: Record<string, unknown> | undefined): void {
    if (this.#taskId !== undefined && params?.taskId === this.#taskId)
      this.#display.status(params as unknown as TaskState);
  }

  /** Follows the task `tools/call` answered with until it ends, or Ctrl-C cancels it. */
  async follow(task: TaskState & { pollInterval?: unknown }): Promise<FollowOutcome> {
    // Ctrl-C is ours before anything is shown: a person who sees the task may press it at once.
    let interrupts = 0;
    let interrupted!: () => void;
    const interrupt = new Promise<'interrupted'>((resolve) => {
      interrupted = () => resolve('interrupted');
    });
    const onSigint = () => {
      // A second Ctrl-C does not wait for the server.
      if (++interrupts > 1) process.exit(130);
      interrupted();
    };
    process.on('SIGINT', onSigint);
    const taskId = task.taskId;
    this.#taskId = taskId;
    this.#display.status(task);
    this.#known(taskId);
    const poll = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, Number(task.pollInterval) || 1000));
    let done = false;
    let wake = () => {};
    const result = this.#peer.request('tasks/result', { taskId });
    result.catch(() => {});
    const polling = (async () => {
      while (!done) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, poll);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        if (!done && !(await this.#refresh())) return;
      }
    })();
    try {
      const first = await Promise.race([result.then(() => 'settled' as const), interrupt]).catch(
        () => 'settled' as const,
      );
      done = true;
      wake();
      await polling;
      if (first === 'interrupted') {
        await this.#cancel(taskId);
        return { interrupted: true };
      }
      // The end as the server tells it (a failure's message); if it cannot, as the result does.
      if (!this.#display.ended && !(await this.#refresh()))
        this.#display.status({
          taskId,
          status: (await result.then(() => true).catch(() => false)) ? 'completed' : 'failed',
        });
      return { result: untagged((await result) as Record<string, unknown>) };
    } finally {
      process.off('SIGINT', onSigint);
    }
  }

  async #cancel(taskId: string): Promise<void> {
    this.#display.note('Ctrl-C: cancelling the task (press Ctrl-C again to quit at once)');
    try {
      this.#display.status(
        (await this.#peer.request('tasks/cancel', { taskId })) as unknown as TaskState,
      );
    } catch (error) {
      this.#display.note(`could not cancel it: ${(error as Error).message}`);
    }
  }

  /** Reads the task (`tasks/get`) for the display; false when it cannot be read any more. */
  async #refresh(): Promise<boolean> {
    const asked = ++this.#asked;
    try {
      const task = (await this.#peer.request('tasks/get', {
        taskId: this.#taskId,
      })) as unknown as TaskState;
      if (asked > this.#shown) {
        this.#shown = asked;
        this.#display.status(task);
      }
      return true;
    } catch {
      return false;
    }
  }
}

/** The result without the task's tag, which is protocol, not the tool's result. */
function untagged(result: Record<string, unknown>): Record<string, unknown> {
  const { _meta, ...payload } = result;
  const { [RELATED_TASK]: _related, ...meta } = (_meta ?? {}) as Record<string, unknown>;
  return Object.keys(meta).length > 0 ? { ...payload, _meta: meta } : payload;
}
