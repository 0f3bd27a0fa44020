import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { createServer, Tool, type Context } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';
import { authInfo } from '@mcp-fw/auth';
import { devUpstreamProvider, type DevUpstreamProvider } from '@mcp-fw/auth/dev';
import { authorizationServer, oidcUpstream } from '@mcp-fw/auth/server';
import { redisAuthorizationStore, type RedisAuthorizationStore } from '@mcp-fw/redis';
import { z } from 'zod';
import {
  Browser,
  callTool,
  signInByHand,
  tokenRequest,
} from '../../auth/test/support/own-authorization-server.ts';
import { onFreePort } from '../../../test-support/ports.ts';
import { Balancer, HAPROXY, REDIS_SERVER, RedisProcess } from './support/processes.ts';

// Two instances of one MCP server, each with its own authorizationServer on a shared Redis
// store, behind HAProxy round robin without affinity: a sign-in started on one node completes
// on the other, and a refresh token is used once across both.

class Me {
  @Tool({ description: 'Who the caller is', input: z.object({}) })
  whoami(_: object, ctx: Context) {
    return authInfo(ctx).subject ?? 'nobody';
  }
}

/** A browser that notes which node answered each request to the balancer. */
class TracingBrowser extends Browser {
  readonly servedBy: string[] = [];
  override async fetch(url: string, init?: RequestInit): Promise<Response> {
    const response = await super.fetch(url, init);
    const node = response.headers.get('x-served-by');
    if (node) this.servedBy.push(`${new URL(url).pathname} ${node}`);
    return response;
  }
}

const skip = !REDIS_SERVER || !HAPROXY;
let redis: RedisProcess;
let balancer: Balancer;
let idp: DevUpstreamProvider;
const handles: HttpServerHandle[] = [];
const stores: RedisAuthorizationStore[] = [];
let origin: string;
let resource: string;
let machineKey: CryptoKey;

beforeAll(async () => {
  if (skip) return;
  redis = await RedisProcess.start();
  const signingKey = await exportJWK(
    (await generateKeyPair('ES256', { extractable: true })).privateKey,
  );
  const secret = 'a-cluster-wide-secret-of-32-chars!!';
  const machine = await generateKeyPair('ES256', { extractable: true });
  machineKey = machine.privateKey;
  const machineJwk = { ...(await exportJWK(machine.publicKey)), kid: 'm1', alg: 'ES256' };
  // The nodes bind port 0 (the OS picks), but the balancer's port is part of their configuration
  // (the resource, the IdP's redirect URI) before it listens: a balancer port taken meanwhile
  // starts the IdP and both nodes again for a fresh one.
  await onFreePort(async (port) => {
    origin = `http://127.0.0.1:${port}`;
    resource = `${origin}/mcp`;
    idp = await devUpstreamProvider({ redirectUri: `${origin}/oauth/callback` });
    try {
      for (let node = 0; node < 2; node++) {
        const store = await redisAuthorizationStore(redis.url);
        stores.push(store);
        const as = await authorizationServer({
          resource,
          scopes: ['notes:read'],
          upstream: oidcUpstream({
            issuer: idp.issuer,
            clientId: idp.clientId,
            clientSecret: idp.clientSecret,
          }),
          store,
          secret,
          signingKey,
          clients: [
            {
              clientId: 'reporting',
              jwks: { keys: [machineJwk] },
              grantTypes: ['client_credentials'],
            },
          ],
          rateLimits: { perClient: { max: 4, perMs: 60_000 } },
        });
        const server = createServer({ name: 'me', version: '1.0.0', providers: [Me] });
        handles.push(await serveHttp(server, { port: 0, ...as.protect() }));
      }
      balancer = await Balancer.startOn(
        handles.map((h) => h.port),
        port,
      );
    } catch (error) {
      for (const h of handles.splice(0)) await h.close();
      for (const s of stores.splice(0)) await s.close();
      await idp.close();
      throw error;
    }
  });
  // Both nodes up behind the balancer before the flow starts.
  for (let i = 0; i < 20; i++) {
    const seen = new Set<string>();
    for (let j = 0; j < 4; j++)
      seen.add(
        (await fetch(`${origin}/.well-known/oauth-authorization-server`)).headers.get(
          'x-served-by',
        ) ?? '',
      );
    if (seen.size === 2) break;
    await new Promise((r) => setTimeout(r, 150));
  }
}, 60_000);
afterAll(async () => {
  for (const h of handles) await h.close();
  for (const s of stores) await s.close();
  await idp?.close();
  await balancer?.stop();
  await redis?.stop();
});

describe.skipIf(skip)('authorizationServer on a Redis store behind HAProxy', () => {
  it('a sign-in started on one instance completes on another', async () => {
    const browser = new TracingBrowser();
    const { tokens, clientId } = await signInByHand(origin, resource, {
      scope: 'notes:read',
      browser,
    });
    expect(tokens.status).toBe(200);
    const steps = browser.servedBy.filter((s) => /authorize|callback|consent/.test(s));
    // /authorize, /callback and /consent did not all land on one node.
    expect(new Set(steps.map((s) => s.split(' ')[1])).size, steps.join(', ')).toBe(2);
    const token = tokens.body.access_token as string;
    const served = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const response = await callTool(resource, token, 'whoami');
      expect(response.status).toBe(200);
      served.add(response.headers.get('x-served-by') ?? '');
    }
    expect(served.size).toBe(2);
    // Rotation and reuse detection hold across the nodes.
    const first = await tokenRequest(origin, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token as string,
      client_id: clientId,
    });
    expect(first.status).toBe(200);
    const replay = await tokenRequest(origin, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token as string,
      client_id: clientId,
    });
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    for (let i = 0; i < 2; i++)
      expect((await callTool(resource, first.body.access_token as string, 'whoami')).status).toBe(
        401,
      );
  });

  it('a private_key_jwt assertion replayed on the other node is refused, and a client’s rate limit holds across both nodes', async () => {
    const assertion = () => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ jti: crypto.randomUUID() })
        .setProtectedHeader({ alg: 'ES256', kid: 'm1' })
        .setIssuer('reporting')
        .setSubject('reporting')
        .setAudience(origin)
        .setIssuedAt(now)
        .setExpirationTime(now + 60)
        .sign(machineKey);
    };
    const ask = async (clientAssertion: string) => {
      const response = await fetch(`${origin}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: clientAssertion,
        }),
      });
      return {
        status: response.status,
        node: response.headers.get('x-served-by'),
        retryAfter: response.headers.get('retry-after'),
        body: (await response.json()) as Record<string, string>,
      };
    };
    const once = await assertion();
    const first = await ask(once);
    expect(first.status).toBe(200);
    const replay = await ask(once);
    expect(replay.node).not.toBe(first.node);
    expect(replay.status).toBe(401);
    expect(replay.body.error_description).toMatch(/already used/);
    const nodes = new Set([first.node, replay.node]);
    for (let i = 0; i < 2; i++) {
      const more = await ask(await assertion());
      expect(more.status).toBe(200);
      nodes.add(more.node);
    }
    // Four requests of this client, counted on both nodes in Redis: the fifth is over.
    const over = await ask(await assertion());
    expect(over.status).toBe(429);
    expect(Number(over.retryAfter)).toBeGreaterThan(0);
    expect(over.body.error_description).toContain('client reporting sent more than 4 requests');
    expect(nodes.size).toBe(2);
  });
});
