import { type ProgressBar, progressText } from './progress-bar.js';
import type { Style } from './style.js';

/** A task as `tasks/get` (or the call that created it) describes it. */
export interface TaskState {
  readonly taskId: string;
  readonly status: string;
  readonly statusMessage?: string;
}

interface Progress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

// What the server sends is shown, never obeyed: no escape sequence or line break of its own.
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is removed
const clean = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');

/**
 * The life of a task on stderr while `mcp-fw call` follows it: its status (with the server's
 * `statusMessage`) and the call's progress. On a terminal one dim line is redrawn in place and
 * the end is printed for good; elsewhere each change is one plain line, `task <id>: <what>`.
 */
export class TaskDisplay {
  readonly #stream: NodeJS.WriteStream;
  readonly #style: Style;
  readonly #bar: ProgressBar;
  #task?: TaskState;
  #progress?: Progress;
  #early: Progress[] = [];
  #held = 0;

  constructor(stream: NodeJS.WriteStream, style: Style, bar: ProgressBar) {
    this.#stream = stream;
    this.#style = style;
    this.#bar = bar;
  }

  /** Whether the task reached an end (completed, failed or cancelled). */
  get ended(): boolean {
    return this.#task !== undefined && TERMINAL.has(this.#task.status);
  }

  /** Shows the task's status when it changed (status or message); an ended task stays ended. */
  status(task: TaskState): void {
    const previous = this.#task;
    if (this.ended) return;
    const next: TaskState = {
      taskId: clean(String(task.taskId)),
      status: clean(String(task.status)),
      ...(typeof task.statusMessage === 'string'
        ? { statusMessage: clean(task.statusMessage) }
        : {}),
    };
    if (previous?.status === next.status && previous.statusMessage === next.statusMessage) return;
    this.#task = next;
    const line = `${this.#label()}: ${next.status}${next.statusMessage ? ` — ${next.statusMessage}` : ''}`;
    if (!this.#bar.enabled) this.#line(line);
    else if (this.ended) {
      this.#bar.clear();
      this.#line(line);
    } else this.redraw();
    if (!previous) for (const early of this.#early.splice(0)) this.progress(early);
  }

  /** Shows the call's progress (`notifications/progress`); kept until the task is known. */
  progress(progress: Progress): void {
    const { progress: value, total, message } = progress;
    if (!Number.isFinite(value)) return;
    const next: Progress = {
      progress: value,
      ...(typeof total === 'number' && Number.isFinite(total) ? { total } : {}),
      ...(typeof message === 'string' ? { message: clean(message) } : {}),
    };
    if (!this.#task) {
      // The task's first progress can overtake the answer that names the task.
      if (this.#early.length < 16) this.#early.push(next);
      return;
    }
    this.#progress = next;
    if (this.#bar.enabled) this.redraw();
    else {
      const amount =
        next.total === undefined ? `${next.progress}` : `${next.progress}/${next.total}`;
      this.#line(`${this.#label()}: progress ${amount}${next.message ? ` ${next.message}` : ''}`);
    }
  }

  /** A line of its own about the task (Ctrl-C, a failed cancel), above the redrawn line. */
  note(text: string): void {
    this.#bar.clear();
    this.#line(`${this.#label()}: ${text}`);
    this.redraw();
  }

  /** Keeps the line off the terminal while `ask` runs (a question being asked there). */
  async hold<T>(ask: () => Promise<T>): Promise<T> {
    this.#held++;
    this.#bar.clear();
    try {
      return await ask();
    } finally {
      this.#held--;
      this.redraw();
    }
  }

  /** Draws the line again on a terminal (after other output cleared it). */
  redraw(): void {
    const task = this.#task;
    if (!this.#bar.enabled || this.#held > 0 || !task || this.ended) return;
    const about = task.statusMessage ? ` — ${task.statusMessage}` : '';
    const progress = this.#progress;
    const shown = progress
      ? `  ${progressText(progress.progress, progress.total, progress.message)}`
      : '';
    this.#bar.draw(`${this.#label()}: ${task.status}${about}${shown}`, this.#style.dim);
  }

  #label(): string {
    return `task ${this.#task?.taskId ?? '?'}`;
  }

  #line(text: string): void {
    this.#stream.write(`${this.#style.dim(text)}\n`);
  }
}
