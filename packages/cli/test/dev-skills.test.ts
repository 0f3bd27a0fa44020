import { afterEach, describe, expect, it } from 'vitest';
import { connect, type McpClient } from '@mcp-fw/client';
import { cliEnv } from './support/cli-process.ts';
import { BIN } from './support/paths.ts';
import { fixtureProject, type TempProject } from './support/temp-project.ts';
import { until } from './support/until.ts';

// `mcp-fw dev` reloads the project's skills/ folder (#37): editing a SKILL.md, or adding a
// skill, changes what skills/list returns without a restart, and the session hears it the way
// the Skills extension signals it (skills are resources: notifications/resources/list_changed,
// through subscriptions/listen under 2026-07-28). Driven by @mcp-fw/client over stdio.

const GREETING = `---
name: greeting
description: Greet the user by name
---

Say hello.
`;

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function devSession(
  protocolVersion: string,
): Promise<{ project: TempProject; client: McpClient; changes: () => number; stderr: string[] }> {
  const project = fixtureProject('skilled');
  cleanups.push(() => project.remove());
  const stderr: string[] = [];
  const client = await connect(
    {
      command: process.execPath,
      args: [BIN, 'dev', 'src/server.ts'],
      cwd: project.dir,
      env: cliEnv(),
    },
    { protocolVersion, timeoutMs: 60_000, stdio: { onStderr: (line) => stderr.push(line) } },
  );
  cleanups.push(() => client.close());
  let changes = 0;
  const listening = await client.listen({ resources: true }, (change) => {
    if (change.method === 'notifications/resources/list_changed') changes++;
  });
  cleanups.push(() => listening.close());
  return { project, client, changes: () => changes, stderr };
}

const descriptions = async (client: McpClient) =>
  Object.fromEntries(
    (await client.skills.list()).skills.map((s) => [s.uri, s.frontmatter.description]),
  );

describe.each(['2025-11-25', '2026-07-28'])('mcp-fw dev skills at %s', (protocolVersion) => {
  it('editing a SKILL.md (frontmatter or body) or adding a skill updates skills/list without a restart, with resources list_changed', async () => {
    const { project, client, changes, stderr } = await devSession(protocolVersion);
    expect(await descriptions(client)).toEqual({
      'skill://greeting/SKILL.md': 'Greet the user by name',
    });
    const [before] = (await client.skills.list()).skills;

    project.write(
      'skills/greeting/SKILL.md',
      GREETING.replace('Greet the user by name', 'Greet the user warmly'),
    );
    await until(() => changes() === 1, 'resources list_changed after the SKILL.md edit');
    expect(await descriptions(client)).toEqual({
      'skill://greeting/SKILL.md': 'Greet the user warmly',
    });
    // The entry held from before no longer matches what is served: verification says so.
    const stale = await client.skills.read(before!).catch((e: Error) => e);
    expect(stale).toBeInstanceOf(Error);
    expect((stale as Error).message).toContain('skill://greeting/SKILL.md');

    project.write(
      'skills/farewell/SKILL.md',
      '---\nname: farewell\ndescription: Say goodbye\n---\n\nWave.\n',
    );
    await until(() => changes() === 2, 'resources list_changed after a skill was added');
    expect(await descriptions(client)).toEqual({
      'skill://farewell/SKILL.md': 'Say goodbye',
      'skill://greeting/SKILL.md': 'Greet the user warmly',
    });
    const [farewell] = (await client.skills.list()).skills;
    expect((await client.skills.read(farewell!)).body).toBe('\nWave.\n');
    // The tools were not touched, and the session survived both reloads.
    expect((await client.callTool('ping', {})).content).toEqual([{ type: 'text', text: 'pong' }]);
    expect(stderr.join('\n')).toMatch(/reloaded skills\/greeting\/SKILL\.md .*resources changed/);

    // A body-only edit leaves the frontmatter, but the digests changed: announced too.
    const [, held] = (await client.skills.list()).skills;
    project.write(
      'skills/greeting/SKILL.md',
      project.read('skills/greeting/SKILL.md').replace('Say hello.', 'Say hello twice.'),
    );
    await until(() => changes() === 3, 'resources list_changed after a body-only edit');
    const [, edited] = (await client.skills.list()).skills;
    expect(edited!.frontmatter).toEqual(held!.frontmatter);
    expect(edited!.resources[0]!.digest).not.toBe(held!.resources[0]!.digest);
    expect((await client.skills.read(edited!)).body).toBe('\nSay hello twice.\n');
  }, 120_000);
});
