/** ANSI styles, applied only when the stream is a terminal and `NO_COLOR` is unset (no-color.org). */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const plain = (text: string) => text;

/** The styles for `stream`: real colours on a TTY without `NO_COLOR`, identity otherwise. */
export function styleFor(stream: NodeJS.WriteStream): Style {
  const noColor = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '';
  if (!stream.isTTY || noColor) {
    return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain };
  }
  const wrap = (open: number, close: number) => (text: string) =>
    `\x1b[${open}m${text}\x1b[${close}m`;
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
}
