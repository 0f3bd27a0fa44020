// The floor: a hand-written newline-JSON responder with no framework, no validation beyond
// what the work needs, and one write per input chunk. Any Node MCP server pays at least this.
import {
  ADD_DESCRIPTION,
  ECHO_DESCRIPTION,
  extraToolCount,
  extraToolDescription,
  extraToolName,
  SERVER_NAME,
  SERVER_VERSION,
} from './workload.js';

type Id = string | number;
interface Message {
  id?: Id;
  method?: string;
  params?: { protocolVersion?: string; name?: string; arguments?: Record<string, unknown> };
}

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const tools: object[] = [
  {
    name: 'add',
    description: ADD_DESCRIPTION,
    inputSchema: {
      $schema: DIALECT,
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
  },
  {
    name: 'echo',
    description: ECHO_DESCRIPTION,
    inputSchema: {
      $schema: DIALECT,
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    },
  },
];
for (let i = 0, n = extraToolCount(); i < n; i++) {
  tools.push({
    name: extraToolName(i),
    description: extraToolDescription(i),
    inputSchema: { $schema: DIALECT, type: 'object', properties: { value: { type: 'string' } } },
  });
}

function text(value: string): object {
  return { content: [{ type: 'text', text: value }] };
}

function call(params: Message['params']): object {
  const args = params?.arguments ?? {};
  switch (params?.name) {
    case 'add':
      return text(String((args.a as number) + (args.b as number)));
    case 'echo':
      return text(String(args.text));
    default:
      return text('ok');
  }
}

function answer(message: Message): string | undefined {
  if (message.id === undefined) return undefined;
  let result: object;
  switch (message.method) {
    case 'initialize':
      result = {
        protocolVersion: message.params?.protocolVersion ?? '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: SERVER_NAME, version: SERVER_VERSION },
      };
      break;
    case 'tools/list':
      result = { tools };
      break;
    case 'tools/call':
      result = call(message.params);
      break;
    case 'ping':
      result = {};
      break;
    default:
      result = { code: -32601, message: 'Method not found' };
      return JSON.stringify({ jsonrpc: '2.0', id: message.id, error: result });
  }
  return JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
}

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  const lines = (pending + chunk).split('\n');
  pending = lines.pop()!;
  let out = '';
  for (const line of lines) {
    if (line.length === 0) continue;
    const reply = answer(JSON.parse(line) as Message);
    if (reply !== undefined) out += reply + '\n';
  }
  if (out) process.stdout.write(out);
});
process.stdin.on('end', () => process.exit(0));
