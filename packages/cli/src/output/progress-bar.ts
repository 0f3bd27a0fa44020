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
    if (!this.enabled) return;
    const width = 24;
    const fraction = total ? Math.min(1, Math.max(0, progress / total)) : undefined;
    const bar =
      fraction === undefined
        ? ''
        : `[${'#'.repeat(Math.round(fraction * width)).padEnd(width, '-')}] ${Math.round(fraction * 100)}% `;
    const text = `${bar}${fraction === undefined ? `${progress} ` : ''}${message ?? ''}`.slice(
      0,
      (this.#stream.columns || 80) - 1,
    );
    this.#stream.write(`\r\x1b[2K${text}`);
    this.#shown = true;
  }

  /** Clears the bar before other output. */
  clear(): void {
    if (this.#shown) this.#stream.write('\r\x1b[2K');
    this.#shown = false;
  }
}
