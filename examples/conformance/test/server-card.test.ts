import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixture, type FixtureProcess } from './support/fixture-process.ts';

const SCHEMA = new URL('../../../vendor/server-card/schema.json', import.meta.url);
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as { default: (a: Ajv2020) => void }).default(ajv);
ajv.addSchema(JSON.parse(readFileSync(SCHEMA, 'utf8')), 'card');
const validCard = ajv.getSchema('card#/$defs/ServerCard')!;

let fixture: FixtureProcess;
beforeAll(async () => {
  fixture = await startFixture();
}, 30_000);
afterAll(() => fixture?.stop());

it('the fixture serves its Server Card and a catalog listing it over HTTP', async () => {
  const catalog = await fetch(new URL('/.well-known/ai-catalog.json', fixture.url));
  expect(catalog.headers.get('content-type')).toBe('application/ai-catalog+json');
  const { entries } = (await catalog.json()) as { entries: { url: string }[] };
  expect(entries).toEqual([
    {
      identifier: 'urn:air:mcp-fw.github.io:mcp:conformance',
      type: 'application/mcp-server-card+json',
      url: `${fixture.url.href}/server-card`,
    },
  ]);
  const response = await fetch(entries[0].url, {
    headers: { accept: 'application/mcp-server-card+json' },
  });
  expect(response.headers.get('content-type')).toBe('application/mcp-server-card+json');
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  const card = await response.json();
  expect(validCard(card), ajv.errorsText(validCard.errors)).toBe(true);
  expect(card).toMatchObject({
    name: 'io.github.mcp-fw/conformance',
    version: '0.1.0',
    remotes: [{ type: 'streamable-http', url: fixture.url.href }],
  });
});
