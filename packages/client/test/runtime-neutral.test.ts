import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  nodeUses,
  parseImports,
  runtimeGraph,
  SRC as CORE_SRC,
  stripComments,
} from '../../core/test/support/source-graph.ts';

// The HTTP client runs on Node, Bun, Deno, browsers and Workers: what the root entry loads —
// its own files with the non-Node variant of `#stdio-transport`, and the @mcp-fw/core subpaths
// they import — uses no `node:*` module and no Node global. Only the stdio transport may.

const SRC = join(import.meta.dirname, '../src');
const PACKAGE = JSON.parse(readFileSync(join(SRC, '../package.json'), 'utf8'));
const CORE_EXPORTS = JSON.parse(readFileSync(join(CORE_SRC, '../package.json'), 'utf8')).exports;

/** Every file the client's `entry` loads at runtime on `runtime`: its own, and core's. */
function loaded(entry: string, runtime: 'neutral' | 'node'): { client: string[]; core: string[] } {
  const client = new Set<string>([entry]);
  const core = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    const text = stripComments(readFileSync(join(SRC, file), 'utf8'));
    for (const { specifier, typeOnly } of parseImports(text)) {
      if (typeOnly) continue;
      let target: string | undefined;
      if (specifier.startsWith('.'))
        target = relative(SRC, resolve(SRC, dirname(file), specifier)).replace(/\.js$/, '.ts');
      else if (specifier.startsWith('#')) {
        const conditions = PACKAGE.imports[specifier];
        const branch = runtime === 'node' ? conditions.node : conditions;
        target = branch['@mcp-fw/source'].replace(/^\.\/src\//, '');
      } else if (specifier.startsWith('@mcp-fw/core')) {
        const subpath = `.${specifier.slice('@mcp-fw/core'.length)}`;
        const source = CORE_EXPORTS[subpath]['@mcp-fw/source'].replace(/^\.\/src\//, '');
        for (const reached of runtimeGraph(source, runtime).keys()) core.add(reached);
      }
      if (target !== undefined && !client.has(target)) {
        client.add(target);
        queue.push(target);
      }
    }
  }
  return { client: [...client], core: [...core] };
}

function nodeUsesOf(files: { client: string[]; core: string[] }): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  const record = (name: string, text: string) => {
    const uses = nodeUses(stripComments(text));
    if (uses.length > 0) found[name] = uses;
  };
  for (const file of files.client) record(`client/${file}`, readFileSync(join(SRC, file), 'utf8'));
  for (const file of files.core) record(`core/${file}`, readFileSync(join(CORE_SRC, file), 'utf8'));
  return found;
}

describe('@mcp-fw/client is runtime-neutral but for stdio', () => {
  it('the root entry, off Node, loads no node:* module and uses no Node global (HTTP, in-memory)', () => {
    const files = loaded('index.ts', 'neutral');
    expect(files.client).toContain('transports/streamable-http.ts');
    expect(files.client).toContain('transports/stdio-unavailable.ts');
    expect(files.client).not.toContain('transports/stdio-node.ts');
    expect(files.client).toContain('transports/fetch-web.ts');
    expect(files.client).not.toContain('transports/fetch-node.ts');
    expect(files.core.length).toBeGreaterThan(5);
    expect(nodeUsesOf(files)).toEqual({});
  });

  it('on Node, the only Node-only code is the stdio transport, the node:http fetch and core’s Node variants', () => {
    const uses = nodeUsesOf(loaded('index.ts', 'node'));
    const clientFiles = Object.keys(uses).filter((f) => f.startsWith('client/'));
    expect(clientFiles.sort()).toEqual([
      'client/transports/fetch-node.ts',
      'client/transports/stdio-node.ts',
    ]);
  });
});
