import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkServerLines } from '../../core/test/support/wire-log.ts';
import {
  connectDevClient,
  type DevClient,
  type DevClientKind,
  type Progress,
} from './support/dev-clients.ts';
import { FIXTURES } from './support/paths.ts';
import { fixtureProject, type TempProject } from './support/temp-project.ts';
import { eventually, until } from './support/until.ts';

const NEXT = readFileSync(join(FIXTURES, 'greeter-next/greeter.ts'), 'utf8');
const BROKEN = `${NEXT}\nexport const broken = ;\n`;
const BROKEN_AT = `src/greeter.ts(${BROKEN.split('\n').indexOf('export const broken = ;') + 1},23)`;
const KINDS: [DevClientKind, string][] = [
  ['@modelcontextprotocol/sdk 1.x (2025-11-25)', '2025-11-25'],
  ['@modelcontextprotocol/client 2.x auto (2026-07-28)', '2026-07-28'],
];

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function devSession(
  kind: DevClientKind,
): Promise<{ project: TempProject; client: DevClient }> {
  const project = fixtureProject('greeter');
  cleanups.push(() => project.remove());
  const client = await connectDevClient(kind, project.dir, ['src/server.ts']);
  cleanups.push(() => client.close());
  return { project, client };
}

const text = (result: any) => result.content.map((c: any) => c.text).join('');

describe.each(KINDS)('mcp-fw dev with %s', (kind, version) => {
  it('reloads edits without reconnecting: list_changed, new and changed tools, then a syntax error and its fix', async () => {
    const { project, client } = await devSession(kind);
    expect(client.version).toBe(version);
    expect(text(await client.callTool('greet', { name: 'Ada' }))).toBe('Hello, Ada!');

    project.write('src/greeter.ts', NEXT);
    await until(() => client.toolListChanges() === 1, 'tools/list_changed arrives');
    expect(await client.toolNames()).toEqual(['greet', 'farewell', 'hold']);
    expect(text(await client.callTool('greet', { name: 'Ada', times: 2 }))).toBe('Hi, Ada!!');
    expect(text(await client.callTool('farewell', { name: 'Ada' }))).toBe('Goodbye, Ada');

    project.write('src/greeter.ts', BROKEN);
    const failure = await eventually(
      () =>
        client.callTool('greet', { name: 'Ada' }).then(
          () => undefined,
          (error: Error) => error,
        ),
      (error) => error !== undefined,
      'calls fail with the compile error',
    );
    expect(failure!.message).toContain(
      `mcp-fw dev cannot serve tools/call: src/server.ts does not compile: ${BROKEN_AT}: error TS1109: Expression expected.`,
    );
    expect(failure!.message).toContain(
      'fix it and save; mcp-fw dev reloads and the session stays connected',
    );
    expect(client.stderr()).toContain(`${BROKEN_AT}: error TS1109: Expression expected.`);
    if (version !== '2026-07-28') {
      // Legacy sessions also get the failure as a log message; 2026-07-28 has no unsolicited logs.
      expect(client.logs.some((log) => log.includes('error TS1109: Expression expected.'))).toBe(
        true,
      );
    }

    project.write('src/greeter.ts', NEXT);
    const recovered = await eventually(
      () => client.callTool('greet', { name: 'Ada' }).then(text, () => undefined),
      (value) => value !== undefined,
      'calls work again after the fix',
    );
    expect(recovered).toBe('Hi, Ada!');
    expect(client.toolListChanges()).toBe(1);
    // The fixture logs to stdout while loading: stderr got it, and every stdout line is a frame.
    expect(client.stderr()).toContain('greeter: loading');
    expect(checkServerLines(client.wire(), version)).toEqual([]);
  });

  it('lets a call in flight during a reload finish on the old code, with its progress and elicitation', async () => {
    const { project, client } = await devSession(kind);
    const go = project.path('go');
    const progress: Progress[] = [];
    const held = client.callTool('hold', { file: go }, (p) => progress.push(p));
    await until(() => progress.length === 1, 'the held call reports progress');

    project.write('src/greeter.ts', NEXT);
    await until(() => client.toolListChanges() === 1, 'tools/list_changed arrives');
    project.write('go', '');
    expect(text(await held)).toBe('v1 held (accept)');
    expect(progress).toEqual([
      { progress: 1, total: 2, message: 'waiting' },
      { progress: 2, total: 2, message: 'confirming' },
      // Client 2.x reports its own answer to the input round (2026-07-28 elicitation) as progress.
      ...(version === '2026-07-28'
        ? [{ progress: 1, message: "Fulfilling input required by 'tools/call' (round 1)" }]
        : []),
    ]);
    expect(text(await client.callTool('hold', { file: go }))).toBe('v2 held (accept)');
    expect(checkServerLines(client.wire(), version)).toEqual([]);
  });
});
