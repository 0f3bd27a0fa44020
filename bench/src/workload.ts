// What every benchmarked server exposes, so the three answer byte-comparable requests.

export const SERVER_NAME = 'bench';
export const SERVER_VERSION = '1.0.0';

export const ADD_DESCRIPTION = 'Adds two numbers';
export const ECHO_DESCRIPTION = 'Returns the text it is given';

/** How many extra trivial tools to register (`MCP_BENCH_TOOLS=N`); 0 when unset. */
export function extraToolCount(): number {
  const n = Number(process.env.MCP_BENCH_TOOLS ?? 0);
  if (!Number.isInteger(n) || n < 0) {
    throw new Error(
      `MCP_BENCH_TOOLS must be a non-negative integer, got ${process.env.MCP_BENCH_TOOLS}`,
    );
  }
  return n;
}

export function extraToolName(i: number): string {
  return `extra_${i}`;
}

export function extraToolDescription(i: number): string {
  return `Extra trivial tool number ${i}; returns ok`;
}
