// The HTTP checks remember the last value that passed (the Host a client repeats, the path it
// posts to, a plain header value): each test makes sure a remembered value never lets another
// one through, so these fail if the memo answered for a value it has not seen.
import { describe, expect, it } from 'vitest';
import { decodeHeaderValue } from '../src/protocol/eras/modern/http-ladder.ts';
import type { HttpRequestView } from '../src/transports/http/exchange.ts';
import { checkOrigin } from '../src/transports/http/guard.ts';
import { isJsonContentType } from '../src/transports/http/responses.ts';

const withHeaders = (headers: Record<string, string>) =>
  ({ header: (name: string) => headers[name] }) as unknown as HttpRequestView;

describe('values remembered between requests', () => {
  it('a Host that passed does not let another Host through, nor a missing one', () => {
    expect(checkOrigin(withHeaders({ host: 'localhost:3000' }), {})).toBeUndefined();
    expect(checkOrigin(withHeaders({ host: 'localhost:3000' }), {})).toBeUndefined();
    expect(checkOrigin(withHeaders({ host: 'evil.example:3000' }), {})?.status).toBe(403);
    expect(checkOrigin(withHeaders({}), {})?.status).toBe(400);
    expect(checkOrigin(withHeaders({ host: 'localhost:3000, evil.example' }), {})?.status).toBe(
      400,
    );
    // The Origin is still checked after a Host that passed before.
    expect(
      checkOrigin(withHeaders({ host: 'localhost:3000', origin: 'http://evil.example' }), {})
        ?.status,
    ).toBe(403);
  });

  it("a server's own allowedHosts list is read on every request, also after a Host passed it", () => {
    const allowedHosts = ['api.example'];
    const req = withHeaders({ host: 'api.example' });
    expect(checkOrigin(req, { allowedHosts })).toBeUndefined();
    allowedHosts.length = 0;
    allowedHosts.push('other.example');
    expect(checkOrigin(req, { allowedHosts })?.status).toBe(403);
    // '*' lets any well-formed Host through, and still refuses a malformed one.
    expect(checkOrigin(withHeaders({ host: 'anything.example' }), { allowedHosts: '*' })).toBe(
      undefined,
    );
    expect(checkOrigin(withHeaders({ host: 'a b' }), { allowedHosts: '*' })?.status).toBe(400);
  });

  it('a plain header value is taken literally, a wrapped one decoded or refused', () => {
    expect(decodeHeaderValue('add')).toBe('add');
    expect(decodeHeaderValue('=')).toBe('=');
    expect(decodeHeaderValue(`=?base64?${Buffer.from('süd').toString('base64')}?=`)).toBe('süd');
    expect(decodeHeaderValue('=?base64?!!!?=')).toBeUndefined();
    expect(decodeHeaderValue('')).toBe('');
  });

  it('application/json is JSON with or without parameters, in any case; near misses are not', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('Application/JSON; charset=utf-8')).toBe(true);
    expect(isJsonContentType('application/json-patch+json')).toBe(false);
    expect(isJsonContentType('text/plain')).toBe(false);
    expect(isJsonContentType(undefined)).toBe(false);
  });
});
