// A stdio MCP server written as raw text, for tests of what the proxy's fast path writes (its
// answers carry an escape and a 1.0, which a re-encoding changes). One tool per behaviour:
// echo (answers with this process's pid and a count), garbage (an invalid result), wrong-id (its
// answer names the request by a string id), hang (never answers), cancelled (the ids the proxy
// cancelled so far).
import { createInterface } from 'node:readline';

const LEGACY = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const cancelled = [];
let count = 0;

const write = (text) => process.stdout.write(`${text}\n`);
const result = (id, json) => write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${json}}`);
const tool = (name) => ({ name, description: name, inputSchema: { type: 'object' } });

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  const { id, method, params } = message;
  if (method === 'notifications/cancelled') cancelled.push(params.requestId);
  if (id === undefined || method === undefined) return;
  switch (method) {
    case 'initialize': {
      const version = LEGACY.includes(params.protocolVersion)
        ? params.protocolVersion
        : '2025-11-25';
      return result(
        id,
        JSON.stringify({
          protocolVersion: version,
          capabilities: { tools: {} },
          serverInfo: { name: 'raw-upstream', version: '1.0.0' },
        }),
      );
    }
    case 'ping':
      return result(id, '{}');
    case 'tools/list':
      return result(
        id,
        JSON.stringify({ tools: ['echo', 'garbage', 'wrong-id', 'hang', 'cancelled'].map(tool) }),
      );
    case 'tools/call':
      switch (params.name) {
        case 'echo':
          count++;
          return result(
            id,
            `{"content":[{"type":"text","text":"caf\\u00e9 ${process.pid} #${count}"}],"n":1.0}`,
          );
        case 'garbage':
          return result(id, '{"content":"not a list"}');
        case 'wrong-id':
          return write(`{"jsonrpc":"2.0","id":"${id}","result":{"content":[]}}`);
        case 'hang':
          return;
        case 'cancelled':
          return result(
            id,
            JSON.stringify({ content: [{ type: 'text', text: JSON.stringify(cancelled) }] }),
          );
      }
      return write(
        JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32602, message: 'Unknown tool' } }),
      );
    default:
      return write(
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          error: { code: -32601, message: 'Method not found' },
        }),
      );
  }
});
