import { createServer, type McpFwServer, Tool } from '@mcp-fw/core';
import { z } from 'zod';

const ConvertInput = z.object({
  celsius: z.number().describe('A temperature in degrees Celsius'),
});

/** Temperature conversions: nothing to keep between calls, so any isolate serves any call. */
export class Temperatures {
  @Tool({ description: 'Converts Celsius to Fahrenheit', input: ConvertInput })
  to_fahrenheit({ celsius }: z.infer<typeof ConvertInput>): string {
    return `${celsius} °C is ${Math.round((celsius * 9) / 5 + 32)} °F`;
  }
}

/** What the Worker gives the server: secrets and variables from wrangler.jsonc and the dashboard. */
export interface Env {
  /** Signs 2026-07-28 input rounds the same in every isolate (`wrangler secret put STATE_KEY`). */
  readonly STATE_KEY?: string;
}

/** The server, built per isolate and per Durable Object by src/worker.ts, or once by `npm run dev`. */
export function createTemperatureServer(env: Env = {}): McpFwServer {
  return createServer({
    name: 'mcp-fw-template-workers',
    version: '0.1.0',
    instructions: 'Converts temperatures: to_fahrenheit takes degrees Celsius.',
    providers: [Temperatures],
    inputRounds: env.STATE_KEY ? { requestStateKey: env.STATE_KEY } : undefined,
    maskInternalErrors: true,
  });
}
