// serverlessHandler on really cold instances: a front that starts a FRESH node process (the
// function behind a tiny node:http adapter, fixtures/serverless-host.ts) for every request and
// stops it once the response ends, as a serverless platform may; one real redis-server; both
// official clients. A legacy session whose every request meets a new instance, an elicitation
// answered on yet another one, and 2026-07-28 input rounds resumed on a fresh instance.
// About 13 process starts: a CI step of its own (vitest.separate.ts); serverless-handler.test.ts
// checks the handler in process in npm test.
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeEntry } from '../../../test-support/node-entry.ts';
import { patience } from '../../../test-support/patience.ts';
import { NodeProcess, REDIS_SERVER, RedisProcess } from './support/processes.ts';

const HOST = join(import.meta.dirname, 'fixtures/serverless-host.ts');

/** The platform: each request to it starts an instance, is served there, and the instance ends. */
class ColdFront {
  started = 0;
  private constructor(
    readonly http: Server,
    readonly port: number,
  ) {}

  static async start(env: Record<string, string>): Promise<ColdFront> {
    const entry = nodeEntry(HOST);
    const http = createServer();
    const front = await new Promise<ColdFront>((done) =>
      http.listen(0, '127.0.0.1', () =>
        done(new ColdFront(http, (http.address() as { port: number }).port)),
      ),
    );
    http.on('request', async (req, res) => {
      front.started++;
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      let instance: NodeProcess | undefined;
      try {
        instance = await NodeProcess.startProgram(`fn${front.started}`, entry.args, {
          ...entry.env,
          ...env,
        });
        const headers = new Headers();
        for (let i = 0; i < req.rawHeaders.length; i += 2)
          if (!/^(host|connection|content-length)$/i.test(req.rawHeaders[i]))
            headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
        const aborted = new AbortController();
        res.once('close', () => aborted.abort());
        const upstream = await fetch(`http://127.0.0.1:${instance.port}${req.url}`, {
          method: req.method,
          headers,
          body: req.method === 'GET' || req.method === 'DELETE' ? undefined : Buffer.concat(chunks),
          signal: aborted.signal,
        });
        const kept = [...upstream.headers].filter(
          ([k]) => !/^(content-length|transfer-encoding|connection|keep-alive)$/i.test(k),
        );
        res.writeHead(upstream.status, kept.flat());
        res.flushHeaders();
        if (upstream.body) for await (const chunk of upstream.body) res.write(chunk);
        res.end();
      } catch (error) {
        if (!res.headersSent) res.writeHead(502).end(String(error));
        else res.destroy();
      } finally {
        // The platform freezes or drops the instance once its response is out.
        await instance?.kill('SIGKILL');
      }
    });
    return front;
  }

  get url(): URL {
    return new URL(`http://127.0.0.1:${this.port}/mcp`);
  }

  stop(): Promise<void> {
    this.http.closeAllConnections();
    return new Promise((done) => this.http.close(() => done()));
  }
}

describe.skipIf(REDIS_SERVER === undefined)('serverlessHandler on cold instances', () => {
  let redis: RedisProcess;
  let front: ColdFront;

  beforeAll(async () => {
    redis = await RedisProcess.start();
    front = await ColdFront.start({ REDIS_URL: redis.url });
  }, 30_000);

  afterAll(async () => {
    await front?.stop();
    await redis?.stop();
  });

  it(
    'a 2025-11-25 session (SDK 1.x) lives through Redis while every request meets a fresh instance, an elicitation answered on another one',
    async () => {
      const startedBefore = front.started;
      const client = new ClientV1(
        { name: 'serverless-test', version: '1.0.0' },
        { capabilities: { elicitation: {} } },
      );
      client.setRequestHandler(ElicitRequestSchema, async () => ({
        action: 'accept',
        content: { name: 'Ada' },
      }));
      const transport = new StreamableV1(front.url);
      await client.connect(transport);
      try {
        expect(transport.protocolVersion).toBe('2025-11-25');
        expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([
          'greet',
          'whoami',
        ]);
        const first = await client.callTool({ name: 'whoami', arguments: {} });
        const second = await client.callTool({ name: 'whoami', arguments: {} });
        const pid = (r: typeof first) => (r.content as { text: string }[])[0].text;
        // Two processes, neither of which saw the initialize.
        expect(pid(first)).not.toBe(pid(second));
        const greeting = await client.callTool({ name: 'greet', arguments: {} });
        expect(pid(greeting)).toMatch(/^Hello, Ada, from \d+$/);
      } finally {
        await transport.terminateSession();
        await client.close();
      }
      // initialize, initialized, the GET stream, list, three calls, the elicitation's answer, DELETE.
      expect(front.started - startedBefore).toBeGreaterThanOrEqual(8);
    },
    patience(40_000),
  );

  it(
    'a 2026-07-28 client (client 2.x) is served by cold instances as is, an input round resumed on a fresh one',
    async () => {
      const startedBefore = front.started;
      const client = new ClientV2(
        { name: 'serverless-test', version: '1.0.0' },
        { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'auto' as const } },
      );
      client.setRequestHandler('elicitation/create', async () => ({
        action: 'accept' as const,
        content: { name: 'Grace' },
      }));
      await client.connect(new StreamableV2(front.url));
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
        expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([
          'greet',
          'whoami',
        ]);
        const greeting = await client.callTool({ name: 'greet', arguments: {} });
        expect((greeting.content as { text: string }[])[0].text).toMatch(
          /^Hello, Grace, from \d+$/,
        );
      } finally {
        await client.close();
      }
      // The list, the call and its retry with the answer: each on a new instance.
      expect(front.started - startedBefore).toBeGreaterThanOrEqual(3);
    },
    patience(40_000),
  );
});
