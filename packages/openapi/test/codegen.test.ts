import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import { extractSchemas } from '@mcp-fw/typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { generateClasses, writeClasses } from '../src/codegen/index.ts';
import { OpenAPIError } from '../src/index.ts';
import { startUpstream } from './support/petstore-upstream.ts';
import { typeCheckProject } from './support/type-check.ts';

// A project folder inside the package, so the generated files resolve @mcp-fw/core and
// @mcp-fw/openapi as a user's project would (a folder under /tmp has no node_modules).
const WORK = join(import.meta.dirname, `.codegen-${process.pid}`);
afterAll(() => rmSync(WORK, { recursive: true, force: true }));
let dirs = 0;
function project(): string {
  const dir = join(WORK, String(++dirs));
  mkdirSync(dir, { recursive: true });
  return dir;
}

const pet = { $ref: '#/components/schemas/Pet' };
const json = (schema: unknown) => ({ 'application/json': { schema } });
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };

/** Tagged and untagged operations, names that clash, text and empty answers. */
function storeSpec(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Store', version: '2.0.0' },
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          tags: ['pets'],
          summary: 'List the pets',
          parameters: [
            {
              name: 'limit',
              in: 'query',
              description: 'At most this many',
              schema: { type: 'integer', minimum: 1, maximum: 50 },
            },
          ],
          responses: { '200': { description: 'ok', content: json({ type: 'array', items: pet }) } },
        },
        post: {
          operationId: 'addPet',
          tags: ['pets'],
          requestBody: { required: true, content: json({ $ref: '#/components/schemas/NewPet' }) },
          responses: { '200': { description: 'ok', content: json(pet) } },
        },
      },
      '/pets/{id}': {
        // Two operationIds that sanitise alike: find_pet, then find_pet_2.
        get: {
          operationId: 'find pet',
          tags: ['pets'],
          parameters: [idParam],
          responses: { '200': { description: 'ok', content: json(pet) } },
        },
        delete: {
          operationId: 'find.pet',
          tags: ['pets'],
          parameters: [idParam],
          responses: { '204': { description: 'gone' } },
        },
      },
      '/pets/{id}/photo': {
        // A binary answer, and a multipart upload with a file part.
        get: {
          operationId: 'getPhoto',
          tags: ['pets'],
          parameters: [idParam],
          responses: { '200': { description: 'ok', content: { 'image/png': {} } } },
        },
        put: {
          operationId: 'putPhoto',
          tags: ['pets'],
          parameters: [idParam],
          requestBody: {
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  properties: {
                    caption: { type: 'string' },
                    photo: { type: 'string', format: 'binary' },
                  },
                },
                encoding: { photo: { contentType: 'image/png' } },
              },
            },
          },
          responses: { '204': { description: 'stored' } },
        },
      },
      '/store/inventory': {
        get: {
          operationId: 'get-inventory',
          tags: ['pet store'],
          summary: 'The inventory, as text',
          responses: { '200': { description: 'ok', content: { 'text/plain': { schema: {} } } } },
        },
      },
      '/health': {
        get: { operationId: 'health', responses: { '204': { description: 'up' } } },
      },
      ...extra,
    },
    components: {
      schemas: {
        NewPet: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string', description: 'What the pet answers to', minLength: 1 },
            tag: { type: ['string', 'null'] },
            category: { $ref: '#/components/schemas/Category' },
          },
        },
        Pet: {
          allOf: [
            { $ref: '#/components/schemas/NewPet' },
            { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
          ],
        },
        Error: { type: 'object', properties: { message: { type: 'string' } } },
        // A cyclic schema: a named type that refers to itself.
        Category: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            parent: { $ref: '#/components/schemas/Category' },
          },
        },
      },
    },
  };
}

describe('mcp-fw openapi: generated classes', () => {
  it('the generated code is deterministic: the same document gives the same bytes', async () => {
    const a = await generateClasses(storeSpec());
    const b = await generateClasses(JSON.parse(JSON.stringify(storeSpec())));
    expect(b).toEqual(a);
    for (const file of a.filter((f) => f.owner === 'generated')) {
      expect(file.text).toMatch(
        /^\/\/ Generated by `mcp-fw openapi` from Store 2\.0\.0\.\n\/\/ Do not edit/,
      );
      expect(file.text).not.toMatch(/\d{4}-\d{2}-\d{2}T/); // no timestamp
    }
  });

  it('tags become classes, one method per operation; untagged operations are grouped by path', async () => {
    const files = await generateClasses(storeSpec());
    expect(files.map((f) => `${f.path} ${f.owner}`)).toEqual([
      'client.gen.ts generated',
      'health.gen.ts generated',
      'health.ts user',
      'pet-store.gen.ts generated',
      'pet-store.ts user',
      'pets.gen.ts generated',
      'pets.ts user',
      'providers.gen.ts generated',
      'types.gen.ts generated',
    ]);
    const text = (path: string) => files.find((f) => f.path === path)?.text ?? '';
    expect(text('pets.gen.ts')).toContain('export class PetsGenerated {');
    expect(text('pet-store.gen.ts')).toContain('export class PetStoreGenerated {');
    expect(text('pets.ts')).toContain('export class Pets extends PetsGenerated {}');
    const methods = (path: string) =>
      [...text(path).matchAll(/^ {2}async (\w+)\(/gm)].map((m) => m[1]);
    expect(methods('pets.gen.ts')).toEqual([
      'listPets',
      'addPet',
      'find_pet',
      'find_pet_2',
      'getPhoto',
      'putPhoto',
    ]);
    expect(methods('pet-store.gen.ts')).toEqual(['get_inventory']);
    expect(methods('health.gen.ts')).toEqual(['health']);
    // A global's name is not shadowed: the document's Error is ErrorType.
    expect(text('types.gen.ts')).toContain('export interface ErrorType {');
  });

  it('naming collisions are resolved deterministically, and the tool keeps its sanitised name', async () => {
    const files = await generateClasses(storeSpec());
    const store = files.find((f) => f.path === 'pet-store.gen.ts')?.text ?? '';
    // `get-inventory` is a valid tool name but not an identifier: the method is get_inventory.
    expect(store).toMatch(/@Tool\(\{\n {4}name: 'get-inventory',/);
    const names = await generateClasses(storeSpec(), { names: { listPets: 'list_pets' } });
    expect(names.find((f) => f.path === 'pets.gen.ts')?.text).toContain('async list_pets(');
    await expect(
      generateClasses(storeSpec(), { names: { listPets: 'same', addPet: 'same' } }),
    ).rejects.toThrow(/names gives "same" here and to #\/paths\/~1pets\/get/);
  });

  it('an invalid spec is an error naming the JSON pointer', async () => {
    const bad = storeSpec();
    (bad.paths as Record<string, Record<string, { parameters?: unknown[] }>>)['/pets']!
      .get!.parameters = [{ name: 'limit', in: 'nowhere', schema: {} }];
    const error = await generateClasses(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAPIError);
    expect((error as OpenAPIError).pointer).toBe('#/paths/~1pets/get/parameters/0/in');
    expect((error as Error).message).toContain('Fix:');
    await expect(generateClasses(storeSpec(), { exclude: ['nope'] })).rejects.toThrow(
      /--exclude nope names no operation/,
    );
  });

  it('the generated files are written as biome formats them (long unions, quotes, nullable objects)', async () => {
    const spec = storeSpec({
      '/reports': {
        get: {
          operationId: 'listReports',
          tags: ['reports'],
          parameters: [
            {
              name: 'state',
              in: 'query',
              schema: {
                type: 'string',
                enum: [
                  'open',
                  'closed',
                  "won't fix",
                  'duplicate',
                  'needs-triage',
                  'in-progress',
                  'blocked',
                ],
              },
            },
          ],
          responses: {
            '200': {
              description: 'ok',
              content: json({
                type: 'array',
                items: {
                  anyOf: [
                    { type: 'string' },
                    {
                      type: 'object',
                      properties: {
                        id: { type: 'integer' },
                        owner: {
                          type: ['object', 'null'],
                          properties: { login: { type: 'string' } },
                        },
                      },
                    },
                  ],
                },
              }),
            },
          },
        },
      },
    });
    const biome = join(import.meta.dirname, '../../../node_modules/@biomejs/biome/bin/biome');
    for (const file of await generateClasses(spec)) {
      const run = spawnSync(
        process.execPath,
        [biome, 'format', `--stdin-file-path=${file.path.replace('.gen.ts', '-gen.ts')}`],
        {
          cwd: join(import.meta.dirname, '../../..'),
          input: file.text,
          encoding: 'utf8',
        },
      );
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout, file.path).toBe(file.text);
    }
  });

  it('the Petstore in OpenAPI 3.0, 3.1 and Swagger 2.0 generates the same classes, up to what each document says differently', async () => {
    const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name);
    const generate = async (name: string) =>
      Object.fromEntries(
        (await generateClasses(fixture(name), { sourceName: 'petstore' })).map((f) => [
          f.path,
          f.text,
        ]),
      );
    const v30 = await generate('petstore-expanded.yaml');
    const v31 = await generate('petstore-expanded-3.1.json');
    const v20 = await generate('petstore-expanded-swagger-2.0.yaml');
    expect(Object.keys(v31)).toEqual(Object.keys(v30));
    expect(Object.keys(v20)).toEqual(Object.keys(v30));
    expect(v31['client.gen.ts']).toBe(v30['client.gen.ts']);
    expect(v31['pets.gen.ts']).toBe(v30['pets.gen.ts']);
    // 3.1's Pet.tag is nullable; Swagger 2.0's tags are csv and findPets has a shorter description.
    expect(v31['types.gen.ts']).toBe(
      v30['types.gen.ts']?.replaceAll('tag?: string;', 'tag?: string | null;'),
    );
    expect(v20['client.gen.ts']).toBe(
      v30['client.gen.ts']?.replace("in: 'query' },", "in: 'query', delimiter: ',' },"),
    );
    expect(v20['types.gen.ts']).toBe(v30['types.gen.ts']);
  });

  it('a spec change regenerating keeps a user edit', async () => {
    const dir = project();
    const first = writeClasses(dir, await generateClasses(storeSpec()));
    expect(first.created).toEqual(['health.ts', 'pet-store.ts', 'pets.ts']);
    const edited = `${readFileSync(join(dir, 'pets.ts'), 'utf8')}// my edit\n`;
    writeFileSync(join(dir, 'pets.ts'), edited);
    const changed = storeSpec({
      '/pets/{id}/photo': {
        put: {
          operationId: 'uploadPhoto',
          tags: ['pets'],
          parameters: [idParam],
          requestBody: {
            content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
          },
          responses: { '200': { description: 'ok', content: { 'image/png': {} } } },
        },
      },
    });
    // The untagged /health operation is gone: its generated file goes, the user's stays.
    delete (changed.paths as Record<string, unknown>)['/health'];
    const second = writeClasses(dir, await generateClasses(changed));
    expect(readFileSync(join(dir, 'pets.ts'), 'utf8')).toBe(edited);
    expect(second.kept).toEqual(['pet-store.ts', 'pets.ts']);
    expect(second.written).toEqual([
      'client.gen.ts',
      'pets.gen.ts',
      'providers.gen.ts',
      'types.gen.ts',
    ]);
    expect(second.unchanged).toEqual(['pet-store.gen.ts']);
    expect(second.removed).toEqual(['health.gen.ts']);
    expect(readFileSync(join(dir, 'pets.gen.ts'), 'utf8')).toContain('async uploadPhoto(');
  });

  it('the generated project type-checks, its schemas derive from the types (a cyclic schema included), an override in the user subclass takes effect, and every operation serves end to end', async () => {
    const root = project();
    const dir = join(root, 'src', 'api');
    writeClasses(dir, await generateClasses(storeSpec()));
    // The person's edit: an override (undecorated: the generated tool, schemas and all, now runs it).
    writeFileSync(
      join(dir, 'pets.ts'),
      [
        "import type { Context } from '@mcp-fw/core';",
        "import { PetsGenerated } from './pets.gen.js';",
        "import type { ListPetsArgs, ListPetsResult } from './types.gen.js';",
        '',
        'export class Pets extends PetsGenerated {',
        '  async listPets(args: ListPetsArgs, ctx: Context): Promise<{ result: ListPetsResult }> {',
        '    const { result } = await super.listPets(args, ctx);',
        '    return { result: result.map((pet) => ({ ...pet, name: pet.name.toUpperCase() })) };',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    const tsc = typeCheckProject(root);
    expect(tsc.output).toBe('');
    expect(tsc.status).toBe(0);

    const schemas = extractSchemas({ tsconfig: join(root, 'tsconfig.json') });
    expect(Object.keys(schemas)).toEqual(['HealthGenerated', 'PetStoreGenerated', 'PetsGenerated']);
    expect(readFileSync(join(dir, 'types.gen.ts'), 'utf8')).toMatch(
      /export interface AddPetArgs \{[^}]*\n {2}category\?: Category;\n/,
    );
    expect(schemas.PetsGenerated?.listPets?.input).toEqual({
      type: 'object',
      properties: {
        limit: { type: 'integer', description: 'At most this many', minimum: 1, maximum: 50 },
      },
    });

    const upstream = await startUpstream({
      'GET /api/store/inventory': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('3 dogs');
      },
      'GET /api/pets/1/photo': (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      },
      'PUT /api/pets/1/photo': (_req, res) => {
        res.writeHead(204).end();
      },
      'GET /api/health': (_req, res) => {
        res.writeHead(204).end();
      },
    });
    try {
      const { ApiClient } = await import(join(dir, 'client.gen.ts'));
      const { apiProviders } = await import(join(dir, 'providers.gen.ts'));
      const server = createServer({
        name: 'store',
        version: '1.0.0',
        providers: apiProviders(new ApiClient({ baseUrl: upstream.url })),
        schemas,
      });
      const client = await connectTestClient(server);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(
          [
            'addPet',
            'find_pet',
            'find_pet_2',
            'getPhoto',
            'putPhoto',
            'get-inventory',
            'health',
            'listPets',
          ].sort(),
        );
        expect((await client.callTool('listPets', { limit: 1 })).structuredContent).toEqual({
          result: [{ id: 1, name: 'REX', tag: 'dog' }],
        });
        const added = await client.callTool('addPet', {
          name: 'Kit',
          tag: null,
          // Category refers to itself: the argument is typed by name, so every level is checked.
          category: { name: 'cats', parent: { name: 'animals' } },
        });
        expect(
          (await client.callTool('addPet', { name: 'X', category: { parent: { name: 1 } } }))
            .isError,
        ).toBe(true);
        expect(added.structuredContent).toEqual({ id: 3, name: 'Kit', tag: null });
        expect((await client.callTool('find_pet', { id: 3 })).structuredContent).toMatchObject({
          name: 'Kit',
        });
        expect((await client.callTool('find_pet_2', { id: 3 })).isError).toBeFalsy();
        const missing = await client.callTool('find_pet_2', { id: 3 });
        expect(missing.isError).toBe(true);
        expect(missing.content[0]).toMatchObject({ text: expect.stringContaining('HTTP 404') });
        expect((await client.callTool('get-inventory', {})).content[0]).toMatchObject({
          text: '3 dogs',
        });
        expect((await client.callTool('health', {})).isError).toBeFalsy();
        const photo = await client.callTool('getPhoto', { id: 1 });
        expect(photo.content[0]).toEqual({
          type: 'resource',
          resource: {
            uri: `${upstream.url}/pets/1/photo`,
            mimeType: 'image/png',
            blob: 'iVBORw==',
          },
        });
        const put = await client.callTool('putPhoto', { id: 1, caption: 'Rex', photo: 'iVBORw==' });
        expect(put.isError).toBeFalsy();
        const sent = upstream.seen.at(-1);
        expect(sent?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
        expect(sent?.raw.includes(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe(true);
        // Bad input is refused by the schema derived from the types, before any request.
        const before = upstream.seen.length;
        expect((await client.callTool('listPets', { limit: 500 })).isError).toBe(true);
        expect(upstream.seen.length).toBe(before);
      } finally {
        await client.close();
      }
    } finally {
      await upstream.close();
    }
  }, 60_000);
});
