import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createServer, type SkillSource } from '@mcp-fw/core';
import { connect, JsonRpcError, SkillVerificationError } from '@mcp-fw/client';
import { fixtureServer } from './support/fixture-server.ts';

// client.skills against our own server's Skills extension (SEP-2640), in both eras: entries
// listed and got, files read and verified (the official suite's four Skills-client scenarios,
// in conformance-client.test.ts, serve tampered files; here a file that changed since it was
// listed is refused the same way).

const SKILL_MD = `---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
metadata:
  version: "2.1"
---

# PDF processing

See references/FORMS.md.
`;
const FORMS = '# Forms\n\nFill every field.\n';
const LOGO = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x01]);

function skillsServer(skillMd = SKILL_MD, forms = FORMS) {
  const skills: SkillSource[] = [
    {
      path: 'pdf-processing',
      files: { 'SKILL.md': skillMd, 'references/FORMS.md': forms, 'assets/logo.png': LOGO },
    },
    {
      path: 'acme/refunds',
      files: { 'SKILL.md': '---\nname: refunds\ndescription: Refund per policy\n---\nBody\n' },
    },
  ];
  return createServer({ name: 'skills', version: '1.0.0', skills });
}

const sha = (bytes: string | Uint8Array) =>
  `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

describe.each(['2025-11-25', '2026-07-28'])('client.skills under %s', (protocolVersion) => {
  it('lists, gets and reads skills verified against their entries', async () => {
    const client = await connect(skillsServer(), { protocolVersion });
    expect(client.skills.supported).toBe(true);
    expect(client.skills.directoryRead).toBe(true);
    const listing = await client.skills.list();
    expect(listing.skills.map((s) => s.uri)).toEqual([
      'skill://pdf-processing/SKILL.md',
      'skill://acme/refunds/SKILL.md',
    ]);
    if (protocolVersion === '2026-07-28') expect(typeof listing.ttlMs).toBe('number');
    const pdf = listing.skills[0]!;
    expect(pdf.frontmatter).toEqual({
      name: 'pdf-processing',
      description: 'Extract, fill, and assemble PDF documents',
      metadata: { version: '2.1' },
    });
    expect(await client.skills.get(pdf.uri)).toEqual(pdf);

    const skillMd = await client.skills.read(pdf);
    expect(skillMd.text).toBe(SKILL_MD);
    expect(skillMd.frontmatter).toEqual(pdf.frontmatter);
    expect(skillMd.body).toBe('\n# PDF processing\n\nSee references/FORMS.md.\n');
    expect(sha(skillMd.bytes)).toBe(pdf.resources.find((r) => r.uri === pdf.uri)?.digest);
    expect((await client.skills.read(pdf, 'references/FORMS.md')).text).toBe(FORMS);
    const logo = await client.skills.read(pdf, 'skill://pdf-processing/assets/logo.png');
    expect([...logo.bytes]).toEqual([...LOGO]);
    expect(logo.text).toBeUndefined();

    const children = await client.skills.directory('skill://pdf-processing');
    expect(children.map((c) => [c.uri, c.mimeType])).toContainEqual([
      'skill://pdf-processing/references',
      'inode/directory',
    ]);
    await client.close();
  });

  it('a file that changed since it was listed is refused with its digest or size named (SkillVerificationError)', async () => {
    const before = await connect(skillsServer(), { protocolVersion });
    const [pdf] = (await before.skills.list()).skills;
    await before.close();
    // The same skill served again, edited: the entry in hand no longer matches the files.
    const after = await connect(
      skillsServer(SKILL_MD.replace('2.1', '2.2'), FORMS.replace('every', 'each')),
      { protocolVersion },
    );
    const sameSize = await after.skills.read(pdf!, 'SKILL.md').catch((e: unknown) => e);
    expect(sameSize).toBeInstanceOf(SkillVerificationError);
    expect((sameSize as SkillVerificationError).reason).toBe('digest');
    expect((sameSize as Error).message).toContain('skill://pdf-processing/SKILL.md has digest');
    const shorter = await after.skills.read(pdf!, 'references/FORMS.md').catch((e: unknown) => e);
    expect((shorter as SkillVerificationError).reason).toBe('size');
    expect((shorter as Error).message).toContain(
      `is ${FORMS.length - 1} bytes, but the skill's entry says ${FORMS.length}`,
    );
    await after.close();
  });

  it('a path the entry does not list is refused (unlisted), and an unknown skill is -32602', async () => {
    const client = await connect(skillsServer(), { protocolVersion });
    const [pdf] = (await client.skills.list()).skills;
    const error = await client.skills.read(pdf!, '../acme/refunds/SKILL.md').catch((e) => e);
    expect(error).toBeInstanceOf(SkillVerificationError);
    expect(error.reason).toBe('unlisted');
    expect(error.message).toContain('its entry does not list it');
    const unknown = await client.skills.get('skill://nope/SKILL.md').catch((e) => e);
    expect(unknown).toBeInstanceOf(JsonRpcError);
    expect(unknown.code).toBe(-32602);
    await client.close();
  });

  it('a server without the Skills extension lists no skills', async () => {
    const client = await connect(fixtureServer(), { protocolVersion });
    expect(client.skills.supported).toBe(false);
    expect(await client.skills.list()).toEqual({ skills: [] });
    await client.close();
  });
});
