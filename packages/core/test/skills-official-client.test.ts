import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type SkillSource } from '@mcp-fw/core';
import { serveHttp, type HttpServerHandle } from '@mcp-fw/core/node';

const SKILL_MD = `---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
metadata:
  version: "2.1"
compatibility: Needs poppler
---

# PDF processing

See [forms](references/FORMS.md).
`;
const SKILLS: SkillSource[] = [
  {
    path: 'pdf-processing',
    files: {
      'SKILL.md': SKILL_MD,
      'references/FORMS.md': '# Forms\n',
      'assets/blank.pdf': new Uint8Array([0x25, 0x50, 0x44, 0x46, 0xe2, 0xe3, 0xcf, 0xd3]),
    },
  },
];

let handles: HttpServerHandle[] = [];
let clients: Client[] = [];
afterEach(async () => {
  for (const client of clients) await client.close();
  for (const handle of handles) await handle.close();
  handles = [];
  clients = [];
});

async function connect(mode: 'auto' | 'legacy'): Promise<Client> {
  const server = createServer({ name: 'skills-http', version: '1.0.0', skills: SKILLS });
  const handle = await serveHttp(server, { port: 0 });
  handles.push(handle);
  const client = new Client(
    { name: 'skills-host', version: '1.0.0' },
    mode === 'auto'
      ? { versionNegotiation: { mode: 'auto' } }
      : { supportedProtocolVersions: ['2025-11-25'] },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
  clients.push(client);
  return client;
}

describe.each([
  ['auto', '2026-07-28'],
  ['legacy', '2025-11-25'],
] as const)('the official SDK 2.4 skills client (%s)', (mode, version) => {
  it('lists, gets and reads every skill file with verified size and digest', async () => {
    const client = await connect(mode);
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    const skills = new SkillsClient(client);
    expect(skills.supported).toBe(true);
    expect(skills.directoryRead).toBe(true);

    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    expect(listing.skills.map((s) => s.uri)).toEqual(['skill://pdf-processing/SKILL.md']);
    if (version === '2026-07-28')
      expect(listing).toMatchObject({ ttlMs: 0, cacheScope: 'private' });

    const { skill } = await skills.get('skill://pdf-processing/SKILL.md');
    expect(skill).toEqual(listing.skills[0]);

    // read() checks size, sha256 and (for SKILL.md) the frontmatter against the entry.
    const manifest = await skills.read(skill);
    expect(manifest.verified).toBe(true);
    expect(manifest.frontmatter).toEqual(skill.frontmatter);
    expect(manifest.text).toBe(SKILL_MD);
    const forms = await skills.read(skill, 'references/FORMS.md');
    expect([forms.verified, forms.text]).toEqual([true, '# Forms\n']);
    const pdf = await skills.read(skill, 'assets/blank.pdf');
    expect([pdf.verified, [...pdf.bytes]]).toEqual([
      true,
      [...(SKILLS[0]!.files['assets/blank.pdf']! as Uint8Array)],
    ]);

    const directory = await skills.readDirectory('skill://pdf-processing/references');
    expect(directory.resources).toEqual([
      expect.objectContaining({
        uri: 'skill://pdf-processing/references/FORMS.md',
        name: 'FORMS.md',
      }),
    ]);
  });
});
