import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { main, schemasFreshness } from '../src/index.ts';

const FIXTURE = fileURLToPath(new URL('fixtures/plain/', import.meta.url));
const dir = fileURLToPath(new URL(`../.cache/stamp-${process.pid}/`, import.meta.url));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('renaming a parameter makes the stamped schemas.gen.ts stale, naming the changed file, until it is regenerated', () => {
  cpSync(FIXTURE, dir, { recursive: true, filter: (src) => !src.includes('/dist') });
  const out = `${dir}src/schemas.gen.ts`;
  const said: string[] = [];
  const args = ['-p', `${dir}tsconfig.json`];
  expect(main(args, (t) => said.push(t))).toBe(0);
  expect(readFileSync(out, 'utf8')).toMatch(
    /^\/\/ mcp-fw-schemas sources: \{"trips\.ts":"[0-9a-f]{16}"\}$/m,
  );
  expect(schemasFreshness(out)).toEqual({ state: 'fresh' });

  const trips = `${dir}src/trips.ts`;
  writeFileSync(
    trips,
    readFileSync(trips, 'utf8')
      .replace('@param km Kilometres', '@param kilometres Kilometres')
      .replace('miles(km: number', 'miles(kilometres: number')
      .replace('(km / 1.609344)', '(kilometres / 1.609344)'),
  );
  expect(schemasFreshness(out)).toEqual({ state: 'stale', changed: ['trips.ts'] });
  expect(main([...args, '--check'], (t) => said.push(t))).toBe(1);
  expect(said.at(-1)).toContain('is out of date. Fix: run mcp-fw-schemas');

  expect(main(args, (t) => said.push(t))).toBe(0);
  expect(schemasFreshness(out)).toEqual({ state: 'fresh' });
  expect(readFileSync(out, 'utf8')).toContain('"kilometres"');

  // A module an older generator wrote carries no stamp: it cannot be vouched for.
  writeFileSync(out, readFileSync(out, 'utf8').replace(/^\/\/ mcp-fw-schemas sources.*\n/m, ''));
  expect(schemasFreshness(out)).toEqual({ state: 'unstamped' });
}, 90_000); // three extractions, each a TypeScript program
