import {
  BaseResolver,
  bundle,
  createConfig,
  lintDocument,
  makeDocumentFromString,
  type Document,
} from '@redocly/openapi-core';
import { convertObj } from 'swagger2openapi';
import { OpenAPIError } from './errors.js';

/** An OpenAPI document: a parsed object, a file path, an http(s) URL, or JSON/YAML text. */
export type OpenAPISource = Record<string, unknown> | string | URL;

/** The largest document accepted (a guard against a runaway source, not a real API's size). */
export const MAX_SPEC_BYTES = 50 * 1024 * 1024;

/**
 * Reads, validates and bundles a document with @redocly/openapi-core: external and remote
 * `$ref`s are pulled into the document, internal ones stay (deref.ts inlines them with a cycle
 * guard). Structural problems are a startup error naming the pointer of the first few.
 */
export async function loadSpec(source: OpenAPISource): Promise<Record<string, unknown>> {
  const config = await createConfig({
    extends: [],
    rules: { struct: 'error', 'no-unresolved-refs': 'error' },
  });
  const resolver = new BaseResolver();
  let document: Document;
  if (typeof source === 'object' && !(source instanceof URL)) {
    document = makeDocumentFromString(JSON.stringify(source), '/openapi-object.json');
  } else {
    const text = String(source);
    if (/^\s*[{]/.test(text) || /^\s*(openapi|swagger)\s*:/m.test(text)) {
      if (text.length > MAX_SPEC_BYTES) throw tooLarge(text.length);
      document = makeDocumentFromString(text, '/openapi-text.yaml');
    } else {
      const loaded = await resolver.resolveDocument(null, text, true);
      if (loaded instanceof Error) {
        throw new OpenAPIError(
          'INVALID_SCHEMA',
          '#',
          `cannot read the OpenAPI document ${text}: ${loaded.message}. Fix: pass a readable file path, an http(s) URL, JSON/YAML text or a parsed object.`,
        );
      }
      if (loaded.source.body.length > MAX_SPEC_BYTES) throw tooLarge(loaded.source.body.length);
      document = loaded;
    }
  }
  const root = document.parsed as Record<string, unknown> | undefined;
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    throw new OpenAPIError(
      'INVALID_SCHEMA',
      '#',
      'the document is not an object. Fix: pass a Swagger 2.0, OpenAPI 3.0 or 3.1 document.',
    );
  }
  if ('swagger' in root) {
    if (String(root.swagger) !== '2.0' && root.swagger !== 2) {
      throw new OpenAPIError(
        'INVALID_SCHEMA',
        '#/swagger',
        `unsupported "swagger" version ${JSON.stringify(root.swagger)}. Fix: pass a Swagger 2.0, OpenAPI 3.0.x or 3.1.x document.`,
      );
    }
    // Swagger 2.0 is checked and bundled as 2.0 (so a problem names the pointer in the file the
    // person wrote), then converted to 3.0 and read like any 3.0 document.
    await check(document, config, resolver, 'Swagger 2.0');
    const bundled = await bundle({ doc: document, config, externalRefResolver: resolver });
    const converted = await fromSwagger2(bundled.bundle.parsed as Record<string, unknown>);
    document = makeDocumentFromString(
      JSON.stringify(converted),
      '/converted-from-swagger-2.0.json',
    );
    return finish(document, config, resolver);
  }
  if (typeof root.openapi !== 'string' || !/^3\.[01]\./.test(root.openapi)) {
    throw new OpenAPIError(
      'INVALID_SCHEMA',
      '#/openapi',
      `unsupported "openapi" version ${JSON.stringify(root.openapi)}. Fix: pass an OpenAPI 3.0.x or 3.1.x document.`,
    );
  }
  return finish(document, config, resolver);
}

type Config = Awaited<ReturnType<typeof createConfig>>;

async function finish(
  document: Document,
  config: Config,
  resolver: BaseResolver,
): Promise<Record<string, unknown>> {
  await check(document, config, resolver, 'OpenAPI');
  const bundled = await bundle({ doc: document, config, externalRefResolver: resolver });
  return bundled.bundle.parsed as Record<string, unknown>;
}

/** Lints the document; structural errors are a startup error naming the first few pointers. */
async function check(
  document: Document,
  config: Config,
  resolver: BaseResolver,
  kind: string,
): Promise<void> {
  const problems = (await lintDocument({ document, config, externalRefResolver: resolver })).filter(
    (p) => p.severity === 'error',
  );
  if (problems.length > 0) {
    const lines = problems
      .slice(0, 5)
      .map((p) => `${p.location[0]?.pointer ?? '#'}: ${p.message}`)
      .join('; ');
    const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
    throw new OpenAPIError(
      'INVALID_SCHEMA',
      problems[0]?.location[0]?.pointer ?? '#',
      `the ${kind} document is invalid: ${lines}${more}. Fix: correct the document there (npx @redocly/cli lint shows every problem).`,
    );
  }
}

/**
 * Swagger 2.0 → OpenAPI 3.0 with swagger2openapi (the converter most tools use; it runs on
 * Node 20, where @scalar/openapi-upgrader requires Node 22). `patch` fixes the small errors
 * common in real 2.0 documents instead of refusing them.
 */
async function fromSwagger2(doc: Record<string, unknown>): Promise<Record<string, unknown>> {
  try {
    const result = await convertObj(doc as never, { patch: true, warnOnly: true });
    return result.openapi as unknown as Record<string, unknown>;
  } catch (error) {
    throw new OpenAPIError(
      'INVALID_SCHEMA',
      '#',
      `the Swagger 2.0 document could not be converted to OpenAPI 3.0: ${(error as Error).message}. Fix: correct the document, or convert it yourself (npx swagger2openapi spec.json -o openapi.json) and load the result.`,
    );
  }
}

function tooLarge(size: number): OpenAPIError {
  return new OpenAPIError(
    'INVALID_SCHEMA',
    '#',
    `the document is ${size} bytes, over the ${MAX_SPEC_BYTES}-byte limit. Fix: split the API, or load only the paths you serve.`,
  );
}
