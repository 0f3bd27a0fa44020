import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, JsonRpcError, StartupError, type SkillSource } from '@mcp-fw/core';
import { loadSkills } from '@mcp-fw/core/node';
import { connectTestClient } from '@mcp-fw/core/testing';
import { mcpSchema } from './support/mcp-schema.ts';

const SKILL_MD = `---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
license: Apache-2.0
metadata:
  version: "2.1"
allowed-tools: [read, write]
---

# PDF processing

Pick a template from \`templates/\`.
`;
const FORMS = '# Forms\n\nFill every field.\n';
const BINARY = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x01]);

const SOURCES: SkillSource[] = [
  {
    path: 'pdf-processing',
    files: {
      'SKILL.md': SKILL_MD,
      'references/FORMS.md': FORMS,
      'assets/logo.png': BINARY,
    },
  },
  {
    path: 'acme/billing/refunds',
    files: { 'SKILL.md': '---\nname: refunds\ndescription: Refund per policy\n---\nBody\n' },
  },
];

const sha = (bytes: string | Uint8Array) =>
  `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const size = (text: string) => Buffer.byteLength(text);

let temps: string[] = [];
afterEach(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  temps = [];
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-fw-skills-'));
  temps.push(dir);
  return dir;
}
function write(root: string, path: string, content: string | Uint8Array) {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
}

function startupError(run: () => unknown): StartupError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(StartupError);
    return error as StartupError;
  }
  throw new Error('expected a StartupError');
}

const server = () => createServer({ name: 'skills', version: '1.0.0', skills: SOURCES });

describe.each(['2025-11-25', '2026-07-28'])('skills at %s', (protocolVersion) => {
  it('declares the skills extension with directoryRead, and the resources capability', async () => {
    const client = await connectTestClient(server(), { protocolVersion });
    const capabilities = client.initializeResult.capabilities as Record<string, unknown>;
    expect(capabilities.extensions).toEqual({
      'io.modelcontextprotocol/skills': { directoryRead: true },
    });
    expect(capabilities.resources).toBeDefined();
    await client.close();
  });

  it('skills/list gives each skill its verbatim frontmatter and every file with size and sha256', async () => {
    const client = await connectTestClient(server(), { protocolVersion });
    const result = await client.request<{ skills: unknown[]; ttlMs?: number }>('skills/list');
    expect(result.skills).toEqual([
      {
        uri: 'skill://pdf-processing/SKILL.md',
        frontmatter: {
          name: 'pdf-processing',
          description: 'Extract, fill, and assemble PDF documents',
          license: 'Apache-2.0',
          metadata: { version: '2.1' },
          'allowed-tools': ['read', 'write'],
        },
        resources: [
          { uri: 'skill://pdf-processing/SKILL.md', digest: sha(SKILL_MD), size: size(SKILL_MD) },
          { uri: 'skill://pdf-processing/assets/logo.png', digest: sha(BINARY), size: 8 },
          {
            uri: 'skill://pdf-processing/references/FORMS.md',
            digest: sha(FORMS),
            size: size(FORMS),
          },
        ],
      },
      {
        uri: 'skill://acme/billing/refunds/SKILL.md',
        frontmatter: { name: 'refunds', description: 'Refund per policy' },
        resources: [expect.objectContaining({ uri: 'skill://acme/billing/refunds/SKILL.md' })],
      },
    ]);
    // The cache hints of 2026-07-28 (CacheableResult); the 2025-11-25 backport has none.
    if (protocolVersion === '2026-07-28')
      expect(result).toMatchObject({ ttlMs: 0, cacheScope: 'private', resultType: 'complete' });
    else expect(result.ttlMs).toBeUndefined();
    await client.close();
  });

  it('skills/get returns the entry of a listed skill, and -32602 naming the URI for an unknown one', async () => {
    const client = await connectTestClient(server(), { protocolVersion });
    const { skill } = await client.request<{ skill: { uri: string } }>('skills/get', {
      uri: 'skill://acme/billing/refunds/SKILL.md',
    });
    expect(skill.uri).toBe('skill://acme/billing/refunds/SKILL.md');
    const error = await client
      .request('skills/get', { uri: 'skill://nope/SKILL.md' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(-32602);
    expect((error as JsonRpcError).message).toContain(
      'No skill is served at skill://nope/SKILL.md',
    );
    await client.close();
  });

  it('serves each file through resources/read byte for byte: text as text, binary as a blob', async () => {
    const client = await connectTestClient(server(), { protocolVersion });
    const manifest = await client.readResource('skill://pdf-processing/SKILL.md');
    expect(manifest.contents).toEqual([
      { uri: 'skill://pdf-processing/SKILL.md', mimeType: 'text/markdown', text: SKILL_MD },
    ]);
    const logo = await client.readResource('skill://pdf-processing/assets/logo.png');
    expect(logo.contents).toEqual([
      {
        uri: 'skill://pdf-processing/assets/logo.png',
        mimeType: 'image/png',
        blob: Buffer.from(BINARY).toString('base64'),
      },
    ]);
    const { resources } = await client.request<{ resources: Record<string, unknown>[] }>(
      'resources/list',
    );
    expect(resources).toContainEqual({
      uri: 'skill://pdf-processing/SKILL.md',
      name: 'pdf-processing',
      description: 'Extract, fill, and assemble PDF documents',
      mimeType: 'text/markdown',
      size: size(SKILL_MD),
    });
    await client.close();
  });

  it('resources/directory/read lists direct children, subfolders as inode/directory', async () => {
    const client = await connectTestClient(server(), { protocolVersion });
    const root = await client.request<{ resources: { uri: string; mimeType: string }[] }>(
      'resources/directory/read',
      { uri: 'skill://pdf-processing' },
    );
    expect(root.resources.map((r) => [r.uri, r.mimeType])).toEqual([
      ['skill://pdf-processing/SKILL.md', 'text/markdown'],
      ['skill://pdf-processing/assets', 'inode/directory'],
      ['skill://pdf-processing/references', 'inode/directory'],
    ]);
    const prefix = await client.request<{ resources: { uri: string }[] }>(
      'resources/directory/read',
      { uri: 'skill://acme' },
    );
    expect(prefix.resources.map((r) => r.uri)).toEqual(['skill://acme/billing']);
    for (const uri of ['skill://pdf-processing/SKILL.md', 'skill://missing']) {
      const error = await client
        .request('resources/directory/read', { uri })
        .catch((e: unknown) => e);
      expect((error as JsonRpcError).code).toBe(-32602);
      expect((error as JsonRpcError).message).toContain(`${uri} is not a directory resource`);
    }
    await client.close();
  });

  it('a path that escapes the skill folder is not served', async () => {
    const client = await connectTestClient(server(), { protocolVersion });
    for (const uri of [
      'skill://pdf-processing/../../../../etc/passwd',
      'skill://pdf-processing/%2e%2e/%2e%2e/etc/passwd',
      'skill://pdf-processing/references/../SKILL.md',
    ]) {
      const error = await client.readResource(uri).catch((e: unknown) => e);
      expect(error, uri).toBeInstanceOf(JsonRpcError);
      expect((error as JsonRpcError).message).toContain('Resource not found');
      const directory = await client
        .request('resources/directory/read', { uri: uri.replace(/\/[^/]*$/, '') })
        .catch((e: unknown) => e);
      expect((directory as JsonRpcError).code).toBe(-32602);
    }
    await client.close();
  });

  it('the results are valid against the revision schema', async () => {
    const client = await connectTestClient(server(), { protocolVersion });
    const schema = mcpSchema(protocolVersion);
    const response = (result: unknown) => ({ jsonrpc: '2.0', id: 1, result });
    const init = client.initializeResult;
    const first = protocolVersion === '2026-07-28' ? 'server/discover' : 'initialize';
    expect(schema.check(response(init), first)).toEqual([]);
    const listed = await client.request('resources/list');
    expect(schema.check(response(listed), 'resources/list')).toEqual([]);
    for (const uri of [
      'skill://pdf-processing/SKILL.md',
      'skill://pdf-processing/assets/logo.png',
    ]) {
      const read = await client.request('resources/read', { uri });
      expect(schema.check(response(read), 'resources/read')).toEqual([]);
    }
    await client.close();
  });
});

it('a server without skills answers the skills methods with -32601', async () => {
  const client = await connectTestClient(createServer({ name: 'plain', version: '1.0.0' }));
  for (const method of ['skills/list', 'skills/get', 'resources/directory/read']) {
    const error = await client.request(method, { uri: 'skill://a/SKILL.md' }).catch((e) => e);
    expect((error as JsonRpcError).code, method).toBe(-32601);
  }
  expect(
    (client.initializeResult.capabilities as Record<string, unknown>).extensions,
  ).toBeUndefined();
  await client.close();
});

describe('skills checked at startup', () => {
  const create = (skills: SkillSource[]) => () =>
    createServer({ name: 'bad', version: '1.0.0', skills });

  it('a frontmatter name that differs from the folder fails startup', () => {
    const error = startupError(
      create([{ path: 'tools', files: { 'SKILL.md': '---\nname: other\ndescription: d\n---\n' } }]),
    );
    expect(error.code).toBe('INVALID_SKILL');
    expect(error.message).toContain('must equal the folder\'s name "tools"');
  });

  it('a SKILL.md without frontmatter or description fails startup', () => {
    expect(startupError(create([{ path: 'a', files: { 'SKILL.md': '# no' } }])).message).toContain(
      'must begin with a "---" line',
    );
    expect(
      startupError(create([{ path: 'a', files: { 'SKILL.md': '---\nname: a\n---\n' } }])).message,
    ).toContain('description of 1-1024 characters');
  });

  it('a file path with ".." in a skill source fails startup', () => {
    const error = startupError(
      create([
        {
          path: 'a',
          files: { 'SKILL.md': '---\nname: a\ndescription: d\n---\n', '../secret.txt': 'x' },
        },
      ]),
    );
    expect(error.message).toContain('"../secret.txt" is not a plain relative path');
  });

  it('a skill over the 512-file limit fails startup', () => {
    const files: Record<string, string> = { 'SKILL.md': '---\nname: a\ndescription: d\n---\n' };
    for (let i = 0; i < 512; i++) files[`f${i}.txt`] = 'x';
    expect(startupError(create([{ path: 'a', files }])).message).toContain(
      'it has 513 files; hosts accept at most 512',
    );
  });
});

describe('loadSkills reads a skills/ folder', () => {
  it('finds every folder holding a SKILL.md, nested ones included, and skips dotfiles', () => {
    const root = tempDir();
    write(root, 'pdf-processing/SKILL.md', SKILL_MD);
    write(root, 'pdf-processing/references/FORMS.md', FORMS);
    write(root, 'pdf-processing/.DS_Store', 'junk');
    write(root, 'acme/refunds/SKILL.md', '---\nname: refunds\ndescription: d\n---\n');
    const skills = loadSkills(root);
    expect(skills.map((s) => [s.path, Object.keys(s.files)])).toEqual([
      ['acme/refunds', ['SKILL.md']],
      ['pdf-processing', ['SKILL.md', 'references/FORMS.md']],
    ]);
    expect(() => createServer({ name: 'ok', version: '1.0.0', skills })).not.toThrow();
  });

  it('a symlink out of the skills folder fails startup, naming the link and its target', () => {
    const outside = tempDir();
    write(outside, 'secret.txt', 'password');
    const root = tempDir();
    write(root, 'a/SKILL.md', '---\nname: a\ndescription: d\n---\n');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'a/leak.txt'));
    const error = startupError(() => loadSkills(root));
    expect(error.code).toBe('INVALID_SKILL');
    expect(error.message).toContain('a/leak.txt is a symlink to');
    expect(error.message).toContain('outside the folder');
  });

  it('a symlinked folder out of the skills folder fails startup too', () => {
    const outside = tempDir();
    write(outside, 'etc/passwd', 'root:x');
    const root = tempDir();
    write(root, 'a/SKILL.md', '---\nname: a\ndescription: d\n---\n');
    symlinkSync(join(outside, 'etc'), join(root, 'a/etc'));
    expect(startupError(() => loadSkills(root)).message).toContain('a/etc is a symlink to');
  });

  it('a symlink inside the skills folder is followed', () => {
    const root = tempDir();
    write(root, 'a/SKILL.md', '---\nname: a\ndescription: d\n---\n');
    write(root, 'shared/NOTES.md', 'notes');
    symlinkSync(join(root, 'shared/NOTES.md'), join(root, 'a/NOTES.md'));
    const [skill] = loadSkills(root);
    expect(Buffer.from(skill!.files['NOTES.md'] as Uint8Array).toString()).toBe('notes');
  });

  it('a file over the size limit fails startup, naming the file, its size and maxFileBytes', () => {
    const root = tempDir();
    write(root, 'a/SKILL.md', '---\nname: a\ndescription: d\n---\n');
    write(root, 'a/big.bin', new Uint8Array(2048));
    const error = startupError(() => loadSkills(root, { maxFileBytes: 1024 }));
    expect(error.message).toContain('a/big.bin is 2048 bytes, over the limit of 1024');
    expect(error.message).toContain('maxFileBytes');
  });

  it('a missing folder fails startup with the path', () => {
    const missing = join(tempDir(), 'nope');
    expect(startupError(() => loadSkills(missing)).message).toContain(`${missing} does not exist`);
  });
});
