import type { McpFwServer } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import { SURFACE_ERAS } from '../commands/surface-lock.js';
import { TOKENIZER, toolsFootprint, type Footprint } from './footprint.js';

/** The footprint of `tools/list` as a client of each revision sees it (oldest first). */
export async function eraFootprints(server: McpFwServer): Promise<Record<string, Footprint>> {
  const eras: Record<string, Footprint> = {};
  for (const era of SURFACE_ERAS) {
    const client = await connectTestClient(server, { protocolVersion: era });
    try {
      const tools: Record<string, unknown>[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.request<{
          tools: Record<string, unknown>[];
          nextCursor?: string;
        }>('tools/list', cursor === undefined ? {} : { cursor });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      eras[era] = toolsFootprint(tools);
    } finally {
      await client.close();
    }
  }
  return eras;
}

const pad = (n: number, width: number) => String(n).padStart(width);

/** `mcp-fw inspect --tokens` as text: totals per revision, the newest per tool, what to trim. */
export function footprintReport(eras: Record<string, Footprint>): string {
  const entries = Object.entries(eras);
  const [newest, latest] = entries[entries.length - 1] as [string, Footprint];
  const width = String(Math.max(...entries.map(([, f]) => f.total))).length;
  const lines = [
    `tools/list tokens, counted with ${TOKENIZER}:`,
    ...entries.map(
      ([era, f]) => `  ${era}  ${pad(f.total, width)} tokens  (${f.tools.length} tools)`,
    ),
    '',
    `${newest}, per tool, most first:`,
    ...[...latest.tools]
      .sort((a, b) => b.tokens - a.tokens)
      .map((t) => `  ${pad(t.tokens, width)}  ${t.name}`),
  ];
  const hints = latest.tools.flatMap((t) => t.hints.map((h) => `  ${t.name}: ${h}`));
  lines.push('', hints.length > 0 ? 'What to trim:' : 'Nothing stands out to trim.', ...hints);
  return `${lines.join('\n')}\n`;
}
