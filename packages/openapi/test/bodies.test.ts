import { connectTestClient } from '@mcp-fw/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { fromOpenAPI } from '../src/index.ts';
import { type SeenRequest, startUpstream } from './support/petstore-upstream.ts';

// Request bodies other than JSON, sent to a real node:http upstream and parsed there by a real
// multipart/form parser (undici's Response.formData), not by our own code.
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255]);
const ok = { '204': { description: 'stored' } };

function spec(openapi: '3.0.3' | '3.1.0') {
  const file =
    openapi === '3.0.3'
      ? { type: 'string', format: 'binary', description: 'The photo.' }
      : { type: 'string', contentMediaType: 'image/png', description: 'The photo.' };
  return {
    openapi,
    info: { title: 'Bodies', version: '1.0.0' },
    paths: {
      '/pets/{id}/photo': {
        post: {
          operationId: 'uploadPhoto',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  required: ['photo'],
                  properties: {
                    photo: file,
                    caption: { type: 'string' },
                    labels: { type: 'array', items: { type: 'string' } },
                  },
                },
                ...(openapi === '3.0.3'
                  ? { encoding: { photo: { contentType: 'image/png' } } }
                  : {}),
              },
            },
          },
          responses: ok,
        },
      },
      '/pets/{id}/form': {
        post: {
          operationId: 'updatePetWithForm',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          requestBody: {
            content: {
              'application/x-www-form-urlencoded': {
                schema: {
                  type: 'object',
                  properties: {
                    name: { type: 'string' },
                    status: { type: 'string', enum: ['available', 'sold'] },
                    nicknames: { type: 'array', items: { type: 'string' } },
                  },
                },
              },
            },
          },
          responses: ok,
        },
      },
      '/pets/{id}/raw': {
        put: {
          operationId: 'putRaw',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          requestBody: {
            required: true,
            content: {
              'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
            },
          },
          responses: ok,
        },
      },
    },
  };
}

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function setup(openapi: '3.0.3' | '3.1.0' = '3.0.3') {
  const stored = (_req: unknown, res: { writeHead(n: number): { end(): void } }) => {
    res.writeHead(204).end();
  };
  const upstream = await startUpstream({
    'POST /api/pets/7/photo': stored,
    'POST /api/pets/7/form': stored,
    'PUT /api/pets/7/raw': stored,
  });
  cleanups.push(upstream.close);
  const client = await connectTestClient(
    await fromOpenAPI(spec(openapi), { baseUrl: upstream.url }),
  );
  cleanups.push(() => client.close());
  return { client, upstream };
}

/** Parses what the upstream received with undici's own form parser. */
function parsed(seen: SeenRequest | undefined): Promise<FormData> {
  return new Response(seen?.raw, {
    headers: { 'content-type': String(seen?.headers['content-type']) },
  }).formData();
}

describe('request bodies beyond JSON', () => {
  it.each(['3.0.3', '3.1.0'] as const)(
    'a multipart/form-data file argument is base64 and reaches the API as a file part (%s)',
    async (version) => {
      const { client, upstream } = await setup(version);
      const { tools } = await client.listTools();
      const schema = tools.find((t) => t.name === 'uploadPhoto')?.inputSchema as any;
      expect(schema.properties.photo).toMatchObject({
        type: 'string',
        contentEncoding: 'base64',
        contentMediaType: 'image/png',
      });
      expect(schema.properties.photo.description).toContain('base64');
      expect(schema.required).toEqual(['id', 'photo']);

      const result = await client.callTool('uploadPhoto', {
        id: 7,
        photo: PNG.toString('base64'),
        caption: 'Rex at the beach',
        labels: ['dog', 'beach'],
      });
      expect(result.isError).toBeFalsy();
      const seen = upstream.seen.at(-1);
      expect(seen?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      const form = await parsed(seen);
      const photo = form.get('photo') as File;
      expect(photo.type).toBe('image/png');
      expect(photo.name).toBe('photo');
      expect(Buffer.from(await photo.arrayBuffer())).toEqual(PNG);
      expect(form.get('caption')).toBe('Rex at the beach');
      expect(form.getAll('labels')).toEqual(['dog', 'beach']);
    },
  );

  it('a file argument that is not base64 is an isError naming the argument, and nothing is sent', async () => {
    const { client, upstream } = await setup();
    const before = upstream.seen.length;
    const result = await client.callTool('uploadPhoto', { id: 7, photo: 'not base64!' });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('argument \\"photo\\" is a file');
    expect(upstream.seen.length).toBe(before);
  });

  it('an application/x-www-form-urlencoded body is sent as a form, arrays as repeated keys', async () => {
    const { client, upstream } = await setup();
    const result = await client.callTool('updatePetWithForm', {
      id: 7,
      name: 'Rex & co',
      status: 'sold',
      nicknames: ['R', 'Rexy'],
    });
    expect(result.isError).toBeFalsy();
    const seen = upstream.seen.at(-1);
    expect(seen?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = await parsed(seen);
    expect(form.get('name')).toBe('Rex & co');
    expect(form.get('status')).toBe('sold');
    expect(form.getAll('nicknames')).toEqual(['R', 'Rexy']);
  });

  it('an application/octet-stream body is one base64 body argument sent as bytes', async () => {
    const { client, upstream } = await setup();
    const { tools } = await client.listTools();
    const putRaw = tools.find((t) => t.name === 'putRaw') as any;
    expect(putRaw.inputSchema.properties.body).toMatchObject({
      type: 'string',
      contentEncoding: 'base64',
      contentMediaType: 'application/octet-stream',
    });
    const result = await client.callTool('putRaw', { id: 7, body: PNG.toString('base64') });
    expect(result.isError).toBeFalsy();
    const seen = upstream.seen.at(-1);
    expect(seen?.headers['content-type']).toBe('application/octet-stream');
    expect(seen?.raw).toEqual(PNG);
  });
});
