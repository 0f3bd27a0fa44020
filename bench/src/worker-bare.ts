// The floor on workerd: a module worker that parses the body and answers as the bare node:http
// responder does (src/bare-answer.ts), with no framework and no Durable Object (a session id is
// minted at initialize and never checked). What workerd itself costs per call.
import { answer, type Message } from './bare-answer.js';

export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST') return new Response(null, { status: 200 });
    const message = JSON.parse(await request.text()) as Message;
    const reply = answer(message);
    if (reply === undefined) return new Response(null, { status: 202 });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (message.method === 'initialize') headers['mcp-session-id'] = crypto.randomUUID();
    return new Response(reply, { headers });
  },
};
