import type { Outcome } from './soak-stdio.js';

/** A small seeded PRNG (mulberry32), so a soak run can be repeated call for call. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One call of the mix: what to send, when to cancel it, and what counts as a right answer. */
export interface Planned {
  readonly kind: string;
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly cancelAfterMs?: number;
  /** Undefined when the outcome is one this call may have; else what is wrong with it. */
  check(outcome: Outcome): string | undefined;
}

const MAX_RESULT_BYTES = 64 * 1024;
const WEIGHTS: [string, number][] = [
  ['add', 550],
  ['echo', 150],
  ['cancel', 80],
  ['slow', 20],
  ['big', 30],
  ['limited', 30],
  ['ask', 30],
  ['list', 50],
  ['timeout', 1],
];
const TOTAL = WEIGHTS.reduce((sum, [, w]) => sum + w, 0);

const textOf = (o: Outcome) =>
  'result' in o ? (o.result?.content?.[0]?.text as string | undefined) : undefined;
const isError = (o: Outcome) => 'result' in o && o.result?.isError === true;
const show = (o: Outcome) => JSON.stringify(o).slice(0, 300);

function tool(
  kind: string,
  name: string,
  args: Record<string, unknown>,
  check: Planned['check'],
  cancelAfterMs?: number,
): Planned {
  return { kind, method: 'tools/call', params: { name, arguments: args }, cancelAfterMs, check };
}

/** Draws the next call of the mix. */
export function plan(rand: () => number): Planned {
  let r = rand() * TOTAL;
  const kind = WEIGHTS.find(([, w]) => (r -= w) < 0)![0];
  switch (kind) {
    case 'add': {
      const [a, b] = [Math.floor(rand() * 1e6), Math.floor(rand() * 1e6)];
      return tool(kind, 'add', { a, b }, (o) =>
        textOf(o) === String(a + b) && !isError(o) ? undefined : `add(${a},${b}) → ${show(o)}`,
      );
    }
    case 'echo': {
      const text = `soak ${rand().toString(36)}`;
      return tool(kind, 'echo', { text }, (o) =>
        textOf(o) === text ? undefined : `echo → ${show(o)}`,
      );
    }
    case 'slow': {
      const ms = Math.floor(rand() * 5);
      return tool(kind, 'slow', { ms }, (o) =>
        textOf(o) === `slept ${ms}` ? undefined : `slow(${ms}) → ${show(o)}`,
      );
    }
    case 'cancel': {
      const ms = 20 + Math.floor(rand() * 80);
      // Cancelled before or after it finished: either no answer, or its normal answer.
      return tool(
        kind,
        'slow',
        { ms },
        (o) =>
          'cancelled' in o || textOf(o) === `slept ${ms}`
            ? undefined
            : `cancelled slow(${ms}) → ${show(o)}`,
        Math.floor(rand() * 30),
      );
    }
    case 'big': {
      const n = Math.floor(rand() * 2 * MAX_RESULT_BYTES);
      return tool(kind, 'big', { n }, (o) => {
        if (n <= MAX_RESULT_BYTES)
          return textOf(o)?.length === n && !isError(o) ? undefined : `big(${n}) → ${show(o)}`;
        return isError(o) && textOf(o)?.startsWith(`Tool big produced ${n} bytes`)
          ? undefined
          : `big(${n}) → ${show(o)}`;
      });
    }
    case 'limited':
      return tool(kind, 'limited', {}, (o) =>
        textOf(o) === 'ok' || (isError(o) && textOf(o)?.startsWith('Rate limit exceeded'))
          ? undefined
          : `limited → ${show(o)}`,
      );
    case 'ask':
      return tool(kind, 'ask', {}, (o) =>
        textOf(o) === 'Hello, soak' ? undefined : `ask → ${show(o)}`,
      );
    case 'timeout':
      return tool(kind, 'slow', { ms: 2_500 }, (o) =>
        textOf(o) === 'Tool slow timed out after 2000 ms (timeoutMs) and was stopped.'
          ? undefined
          : `slow(2500) → ${show(o)}`,
      );
    default:
      return {
        kind,
        method: 'tools/list',
        params: {},
        check: (o) =>
          'result' in o && o.result?.tools?.length === 7 ? undefined : `tools/list → ${show(o)}`,
      };
  }
}
