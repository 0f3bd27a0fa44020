// The floor of the ten-thousand-streams benchmark: node:http holding SSE responses with nothing
// else. POST answers as the HTTP floor does (src/bare-answer.ts, a session id minted at
// initialize), except: `subscriptions/listen` and GET open an SSE response that is kept, with
// `Set` membership as its only state; `touch` writes one list_changed event to every kept
// response; `memory` collects garbage and reports process.memoryUsage(), and `pauses` the GC
// pauses since it was last asked, as the mcp-fw server does.
import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answer, type Message } from './bare-answer.js';
import { announce } from './http-server-life.js';
import { memoryReport, recordPauses } from './streams-memory.js';

const streams = new Set<ServerResponse>();
const pauses = recordPauses();
const CHANGED = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })}\n\n`;

function hold(res: ServerResponse, first?: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  // Headers go out now, not with the first event, as every SSE server sends them.
  res.flushHeaders();
  if (first) res.write(first);
  streams.add(res);
  res.once('close', () => streams.delete(res));
}

function reply(res: ServerResponse, message: Message, text: string): void {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
  };
  if (message.method === 'initialize') headers['mcp-session-id'] = randomUUID();
  res.writeHead(200, headers).end(text);
}

function result(message: Message, value: object): string {
  return JSON.stringify({ jsonrpc: '2.0', id: message.id, result: value });
}

// node:http's own checks as serveHttp configures them with its defaults (SERVE_HTTP_DEFAULTS:
// headers 10 s, whole request 30 s, so the connections are checked every second instead of
// Node's 30 s): the floor then pays for whatever those checks cost with 10,000 connections open,
// as mcp-fw does.
const NODE_HTTP_OPTIONS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  connectionsCheckingInterval: 1_000,
};

const server = createServer(NODE_HTTP_OPTIONS, (req, res) => {
  if (req.method === 'GET') return void hold(res);
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.once('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Message;
    if (message.method === 'subscriptions/listen') {
      const ack = {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { toolsListChanged: true } },
      };
      return void hold(res, `event: message\ndata: ${JSON.stringify(ack)}\n\n`);
    }
    if (message.method === 'tools/call' && message.params?.name === 'touch') {
      for (const stream of streams) stream.write(CHANGED);
      return void reply(res, message, result(message, { content: [{ type: 'text', text: 'ok' }] }));
    }
    if (message.method === 'tools/call' && message.params?.name === 'memory') {
      const content = [{ type: 'text', text: memoryReport() }];
      return void reply(res, message, result(message, { content }));
    }
    if (message.method === 'tools/call' && message.params?.name === 'pauses') {
      const content = [{ type: 'text', text: JSON.stringify(pauses.take()) }];
      return void reply(res, message, result(message, { content }));
    }
    const text = answer(message);
    if (text === undefined) return void res.writeHead(202).end();
    reply(res, message, text);
  });
});
server.keepAliveTimeout = 600_000;
server.listen(0, '127.0.0.1', () =>
  announce(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`),
);
