/**
 * A one-line progress bar redrawn in place on a terminal (stderr), for `notifications/progress`.
 * Off a terminal it prints nothing: scripts read the result only.
 */
export class ProgressBar {
  readonly #stream: NodeJS.WriteStream;
  #shown = false;

  constructor(stream: NodeJS.WriteStream) {
    this.#stream = stream;
  }

  get enabled(): boolean {
    return this.#stream.isTTY === true;
  }

  update(progress: number, total?: number, message?: string): void {
    this.draw(progressText(progress, total, message));
  }

  /** Redraws the line with `text`, cut to the terminal's width, then painted (a style). */
  draw(text: string, paint: (text: string) => string = (t) => t): void {
    if (!this.enabled) return;
    this.#stream.write(`\r\x1b[2K${paint(text.slice(0, (this.#stream.columns || 80) - 1))}`);
    this.#shown = true;
  }

  /** Clears the bar before other output. */
  clear(): void {
    if (this.#shown) this.#stream.write('\r\x1b[2K');
    this.#shown = false;
  }
}

/** `[######------------------] 25% message`, or `3 message` when there is no total. */
export function progressText(progress: number, total?: number, message?: string): string {
  const width = 24;
  const fraction = total ? Math.min(1, Math.max(0, progress / total)) : undefined;
  const bar =
    fraction === undefined
      ? `${progress} `
      : `[${'#'.repeat(Math.round(fraction * width)).padEnd(width, '-')}] ${Math.round(fraction * 100)}% `;
  return `${bar}${message ?? ''}`;
}
