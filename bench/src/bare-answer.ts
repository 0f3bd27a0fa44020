// What the bare floors (stdio and HTTP) answer: JSON.parse'd messages in, JSON text out, with no
// framework and no validation beyond what the work needs.
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
export interface Message {
  id?: Id;
  method?: string;
  params?: {
    protocolVersion?: string;
    name?: string;
    arguments?: Record<string, unknown>;
    _meta?: Record<string, unknown>;
  };
}

const SERVER_INFO = {
  'io.modelcontextprotocol/serverInfo': { name: SERVER_NAME, version: SERVER_VERSION },
};

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

/** The JSON text answering `message`, or undefined for a notification. */
export function answer(message: Message): string | undefined {
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
  // A 2026-07-28 request (enveloped) gets the result envelope too: the floor of that era's wire.
  if (message.params?._meta?.['io.modelcontextprotocol/protocolVersion'] !== undefined) {
    result = { resultType: 'complete', ...result, _meta: SERVER_INFO };
  }
  return JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
}
