/**
 * Tells the harness where the server listens (its first stdout line) and exits when the harness
 * closes stdin, as the stdio servers do, so `--cpu-prof` profiles are written on the way out.
 */
export function announce(url: string): void {
  process.stdout.write(`listening ${url}\n`);
  process.stdin.resume();
  process.stdin.once('end', () => process.exit(0));
}
