/** Lines remembered at once; past it the memory starts over (only repeats go unwritten). */
const MAX_LINES = 100;

/**
 * Wraps `write` so that each distinct line is written at most once per `windowMs`: a refusal
 * that repeats on every request (the issuer's keys are unreachable) is said, not shouted. The
 * next time it is written, it says how many times it was held back meanwhile.
 */
export function throttledLog(
  write: (line: string) => void,
  windowMs = 10_000,
): (line: string) => void {
  const seen = new Map<string, { at: number; held: number }>();
  return (line) => {
    const now = Date.now();
    const last = seen.get(line);
    if (last && now - last.at < windowMs) {
      last.held++;
      return;
    }
    if (!last && seen.size >= MAX_LINES) seen.clear();
    seen.set(line, { at: now, held: 0 });
    write(last?.held ? `${line} (${last.held} more like it since it was last written)` : line);
  };
}
