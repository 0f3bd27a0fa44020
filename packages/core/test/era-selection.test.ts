import { describe, expect, it } from 'vitest';
import { InboundRequest } from '../src/jsonrpc/index.ts';
import { handedOn, modernRecord } from '../src/protocol/eras/modern/admission.ts';
import { requestEnvelope, servedEnvelope } from '../src/protocol/eras/modern/envelope.ts';
import { LEGACY } from '../src/protocol/eras/legacy/era.ts';
import { MODERN } from '../src/protocol/eras/modern/era.ts';
import { modernPreflight } from '../src/protocol/eras/modern/http-ladder.ts';
import { selectEra, selectHttpEra } from '../src/protocol/eras/select.ts';

const envelope = requestEnvelope('2026-07-28', { roots: {} }, { name: 'c', version: '1' });
const request = (method: string, params?: Record<string, unknown>) =>
  new InboundRequest(1, method, params);
const noHeaders = () => undefined;

describe('era selection (one rule for stdio and HTTP)', () => {
  it('stdio: the envelope decides and pins; server/discover is answered statelessly and pins nothing', () => {
    expect(selectEra(request('tools/list', { _meta: envelope }))).toEqual({
      era: MODERN,
      pins: true,
    });
    expect(selectEra(request('tools/list', { _meta: { progressToken: 1 } }))).toEqual({
      era: LEGACY,
      pins: true,
    });
    expect(selectEra(request('initialize', {}))).toEqual({ era: LEGACY, pins: true });
    expect(selectEra(request('server/discover', {}))).toEqual({ era: MODERN, pins: false });
  });

  it('HTTP: the body decides; a stateless version header without an envelope is refused', () => {
    const body = (params: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'tools/list', params });
    expect(selectHttpEra(body({ _meta: envelope }), noHeaders)).toBe(MODERN);
    expect(selectHttpEra(body({}), noHeaders)).toBe(LEGACY);
    expect(selectHttpEra(body({}), () => '2026-07-28')).toMatchObject({
      status: 400,
      error: { code: -32602 },
    });
    expect(selectHttpEra([body({ _meta: envelope })], noHeaders)).toMatchObject({ status: 400 });
  });
});

describe('the stateless envelope is read once on HTTP', () => {
  const headers: Record<string, string> = {
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/list',
  };
  const header = (name: string) => headers[name];

  it('the preflight hands the envelope it checked on to the record, which takes it once', () => {
    const params = { _meta: envelope };
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/list', params };
    expect(modernPreflight(message, header, { tool: () => undefined })).toBeUndefined();
    const record = modernRecord(request('tools/list', params), MODERN);
    expect(record).toMatchObject({ era: MODERN, ...servedEnvelope(params) });
    expect(handedOn(params)).toBeUndefined();
  });

  it('a refused request hands nothing on, and other params are read from their own envelope', () => {
    const params = {
      _meta: { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
    };
    const refused = modernPreflight(
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params },
      (name) => (name === 'mcp-protocol-version' ? '2099-01-01' : headers[name]),
      { tool: () => undefined },
    );
    expect(refused).toMatchObject({ status: 400, error: { code: -32022 } });
    expect(handedOn(params)).toBeUndefined();
    expect(() => modernRecord(request('tools/list', params), MODERN)).toThrow(
      /Unsupported protocol version/,
    );
  });
});

describe('Mcp-Param headers (x-mcp-header arguments)', () => {
  const regionSchema = (header: string) => ({
    type: 'object',
    properties: { text: { type: 'string' }, region: { type: 'string', 'x-mcp-header': header } },
  });
  const call = (name: string, args: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args, _meta: envelope },
  });
  const headers =
    (name: string, extra: Record<string, string> = {}) =>
    (header: string): string | undefined =>
      ({
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': name,
        ...extra,
      })[header];

  it('the mirrored arguments are read per schema object: every call, every tool, a replaced schema', () => {
    const schemas: Record<string, { inputSchema: Record<string, unknown> }> = {
      plain: { inputSchema: { type: 'object', properties: { region: { type: 'string' } } } },
      regional: { inputSchema: regionSchema('Region') },
    };
    const registry = { tool: (name: string) => schemas[name] };
    const refused = (name: string, extra?: Record<string, string>) =>
      modernPreflight(call(name, { region: 'eu' }), headers(name, extra), registry)?.error.code;
    // A tool without x-mcp-header first: what is remembered for it says nothing of another tool.
    expect(refused('plain')).toBeUndefined();
    expect(refused('regional')).toBe(-32020);
    expect(refused('regional', { 'mcp-param-region': 'eu' })).toBeUndefined();
    // Checked again on the next call of the same tool, not only the first.
    expect(refused('regional')).toBe(-32020);
    expect(refused('regional', { 'mcp-param-region': 'us' })).toBe(-32020);
    // The tool replaced under the same name (a new schema object): its own header is required.
    schemas.regional = { inputSchema: regionSchema('Zone') };
    expect(refused('regional', { 'mcp-param-region': 'eu' })).toBe(-32020);
    const refusal = modernPreflight(
      call('regional', { region: 'eu' }),
      headers('regional', { 'mcp-param-region': 'eu' }),
      registry,
    );
    expect(refusal?.error.message).toContain('Mcp-Param-Zone header is absent');
    expect(refused('regional', { 'mcp-param-zone': 'eu' })).toBeUndefined();
  });
});
