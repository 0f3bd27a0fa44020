import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SchemaExtractor } from '../src/index.ts';

const tsconfig = fileURLToPath(new URL('corpus/tsconfig.docs.json', import.meta.url));

describe('JSDoc the schema would silently ignore (issue 29)', () => {
  const extractor = new SchemaExtractor({ tsconfig });
  const manifest = extractor.extract();

  it('leftover @param lines and unknown JSDoc tags warn, naming the member, the tag or parameter and file:line', () => {
    expect(extractor.warnings).toEqual([
      'docs.ts:19: Docs.take: @param amount names no parameter (its parameters are isbn, count, shelves, page), ' +
        'so its text is not in the schema. Fix: rename it to the parameter it describes, or remove the line.',
      'docs.ts:20: Docs.take: unknown JSDoc tag @maximun, which sets nothing in the schema. Fix: did you mean @maximum?',
      'docs.ts:8: Docs.take, property number: unknown JSDoc tag @minimun, which sets nothing in the schema. Fix: did you mean @minimum?',
    ]);
    // The documented member beside it is clean: @see and @deprecated document, they set nothing.
    expect(extractor.warnings.some((w) => w.includes('Docs.search'))).toBe(false);
  });

  it('an integer is said with plain types: Integer from @mcp-fw/core becomes "type": "integer" wherever it stands', () => {
    const take = manifest.Docs.take.input as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(take.properties.count).toEqual({ type: 'integer' });
    expect(take.properties.shelves).toEqual({ type: 'array', items: { type: 'integer' } });
    expect(take.properties.page).toMatchObject({
      properties: {
        number: { type: 'integer', description: 'Which page.' },
        size: { type: 'integer', maximum: 100 },
      },
      required: ['number'],
    });
    // Plain number stays number; a returned Integer is not an object, so it has no output schema.
    expect(manifest.Docs.search.input).toMatchObject({ properties: { limit: { type: 'number' } } });
  });
});
