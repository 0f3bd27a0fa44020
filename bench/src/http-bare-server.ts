// The HTTP floor: node:http, read the body, JSON.parse, answer JSON. A session id is minted at
// initialize so clients can follow the protocol, but nothing is checked or kept.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answer, type Message } from './bare-answer.js';
import { announce } from './http-server-life.js';

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.once('end', () => {
    if (req.method !== 'POST') return void res.writeHead(200).end();
    const text =
      chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
    const message = JSON.parse(text) as Message;
    const reply = answer(message);
    if (reply === undefined) return void res.writeHead(202).end();
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(reply)),
    };
    if (message.method === 'initialize') headers['mcp-session-id'] = randomUUID();
    res.writeHead(200, headers).end(reply);
  });
});
// Idle connections are kept for a minute, as by every subject: the harness's connections to one
// subject wait while the others are measured.
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () =>
  announce(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`),
);
