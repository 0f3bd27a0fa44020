import { createServer, Tool, UserError } from '@mcp-fw/core';
import { telemetry } from '@mcp-fw/otel';
import { trace } from '@opentelemetry/api';
import { z } from 'zod';

const tracer = trace.getTracer('telemetry-example');

const TIDES: Record<string, string> = {
  bergen: '06:12 high, 12:31 low',
  oslo: '04:55 high, 11:02 low',
};

class Tides {
  @Tool({
    description: 'Today’s tides for a Norwegian port',
    input: z.object({ port: z.string() }),
    annotations: { readOnlyHint: true },
  })
  async tides({ port }: { port: string }) {
    // Work the tool does shows up as a child of the request's span.
    return tracer.startActiveSpan('tide-table lookup', async (span) => {
      try {
        const found = TIDES[port.toLowerCase()];
        if (!found) throw new UserError(`No tide table for ${port}; try Bergen or Oslo.`);
        return `${port}: ${found}`;
      } finally {
        span.end();
      }
    });
  }
}

export const server = createServer({ name: 'tides', version: '0.1.0', providers: [Tides] });
// A SERVER span and a duration metric per request, once an SDK registered its providers.
server.use(telemetry());
