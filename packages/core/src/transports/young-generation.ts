import { createRequire } from 'node:module';

/**
 * How a stdio server's process sizes V8's young generation (where short-lived objects live):
 * `compact` keeps it near its starting size, `v8-default` lets V8 double it under sustained load.
 */
export type YoungGeneration = 'compact' | 'v8-default';

// No flag is set until a user asks: V8's own sizing is the starting state.
let current: YoungGeneration = 'v8-default';

/** Whoever started node with their own young-generation flags keeps them. */
function tunedByUser(): boolean {
  const flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  return /semi[-_]space/.test(flags);
}

/**
 * Applies `mode` to this process (only on request: `serveStdio`'s `youngGeneration` option).
 * Under load V8 grows the young generation up to 2 × 16 MiB whenever enough objects survive its
 * scavenges; a stdio server answers one client with mostly short-lived garbage, so the growth
 * buys it little but resident memory. V8 reads this factor each time it would grow the space, so
 * setting it at run time takes effect from then on.
 */
export function useYoungGeneration(mode: YoungGeneration): void {
  if (current === mode || tunedByUser()) return;
  current = mode;
  // node:v8 is required here, not imported: it pulls in node:stream and heap utilities that
  // every stdio server would otherwise load at start-up, and only the opt-in needs it.
  const v8 = createRequire(import.meta.url)('node:v8') as typeof import('node:v8');
  v8.setFlagsFromString(`--semi-space-growth-factor=${mode === 'compact' ? 1 : 2}`);
}
