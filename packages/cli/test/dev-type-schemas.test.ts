import { afterEach, describe, expect, it } from 'vitest';
import { devSchemas, usesTypeSchemas } from '../src/dev/schemas.ts';
import { findProject } from '../src/project/project.ts';
import { connectDevClient, type DevClientKind } from './support/dev-clients.ts';
import { fixtureProject } from './support/temp-project.ts';
import { eventually, until } from './support/until.ts';

// The `typed` fixture uses @mcp-fw/typescript: its schemas come from src/schemas.gen.ts, which
// mcp-fw dev regenerates from the signatures before every reload.
const KINDS: DevClientKind[] = [
  '@modelcontextprotocol/client 2.x auto (2026-07-28)',
  '@modelcontextprotocol/sdk 1.x (2025-11-25)',
];

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

const text = (result: any) => result.content.map((c: any) => c.text).join('');
const reloads = (stderr: string) =>
  stderr.split('\n').filter((line) => line.includes(' reloaded ')).length;

describe.each(KINDS)('mcp-fw dev of a plain-typed project with %s', (kind) => {
  it('regenerates the schemas on save: list_changed carries the new signature, type-only imports included', async () => {
    const project = fixtureProject('typed');
    cleanups.push(() => project.remove());
    const client = await connectDevClient(kind, project.dir, ['src/server.ts']);
    cleanups.push(() => client.close());
    const schemaOf = async () =>
      (await client.listTools()).find((t) => t.name === 'note').inputSchema;
    expect(await schemaOf()).toMatchObject({
      properties: { text: { type: 'string' }, kind: { enum: ['todo', 'idea'] } },
      required: ['text'],
    });

    // A new parameter, documented with @param: only the types say what it is.
    const notes = project.read('src/notes.ts');
    project.write(
      'src/notes.ts',
      notes
        .replace(
          '   * @param text What to write\n',
          '   * @param text What to write\n   * @param pinned Keep it on top\n',
        )
        .replace(
          "note(text: string, kind: Kind = 'todo'): string {",
          "note(text: string, kind: Kind = 'todo', pinned?: boolean): string {",
        )
        .replace('return `${kind}: ${text}`;', 'return `${pinned ? "📌 " : ""}${kind}: ${text}`;'),
    );
    await until(
      () => client.toolListChanges() === 1,
      'tools/list_changed arrives after the signature changed',
    );
    const changed = await schemaOf();
    expect(changed.properties.pinned).toEqual({ type: 'boolean', description: 'Keep it on top' });
    expect(changed.required).toEqual(['text']);
    expect(text(await client.callTool('note', { text: 'milk', pinned: true }))).toBe(
      '📌 todo: milk',
    );
    expect(project.read('src/schemas.gen.ts')).toContain('Keep it on top');

    // kinds.ts is reached only through `import type`, which compiled JavaScript no longer shows.
    project.write(
      'src/kinds.ts',
      project.read('src/kinds.ts').replace("'todo' | 'idea'", "'todo' | 'idea' | 'question'"),
    );
    await until(
      () => client.toolListChanges() === 2,
      'tools/list_changed arrives after a type-only import changed',
    );
    expect((await schemaOf()).properties.kind.enum).toEqual(['todo', 'idea', 'question']);
    expect(text(await client.callTool('note', { text: 'why?', kind: 'question' }))).toBe(
      'question: why?',
    );
    // Writing schemas.gen.ts is no change of its own: one reload per save.
    expect(reloads(client.stderr())).toBe(2);

    // A signature that cannot become a schema: the reload fails with the reason, the session stays.
    project.write(
      'src/notes.ts',
      project.read('src/notes.ts').replace('pinned?: boolean', 'pinned?: () => void'),
    );
    const failure = await eventually(
      () =>
        client.callTool('note', { text: 'x' }).then(
          () => undefined,
          (error: Error) => error,
        ),
      (error) => error !== undefined,
      'calls fail with the extraction error',
    );
    expect(failure!.message).toContain(
      'src/schemas.gen.ts cannot be regenerated. Cannot derive schemas from the TypeScript types:',
    );
    expect(failure!.message).toContain('Notes.note');
    expect(project.read('src/schemas.gen.ts')).toContain('Keep it on top');
  });
});

describe('which projects mcp-fw dev regenerates schemas for', () => {
  it('those depending on @mcp-fw/typescript or holding src/schemas.gen.ts; the others get their declared schemas checked', async () => {
    const typed = fixtureProject('typed');
    const greeter = fixtureProject('greeter');
    cleanups.push(
      () => typed.remove(),
      () => greeter.remove(),
    );
    const warnings: string[] = [];
    const warn = (line: string) => warnings.push(line);
    const greeterProject = findProject(greeter.path('src/server.ts'));
    expect(usesTypeSchemas(greeterProject)).toBe(false);
    // Not generated: only its declared schemas are checked against the handlers' types.
    const checked = await devSchemas(greeterProject, warn);
    expect(checked?.target).toBeUndefined();
    expect(await checked?.regenerate()).toEqual({ ok: true, written: false });

    const typedProject = findProject(typed.path('src/server.ts'));
    expect(usesTypeSchemas(typedProject)).toBe(true);
    const schemas = await devSchemas(typedProject, warn);
    expect(schemas?.target).toBe(typed.path('src/schemas.gen.ts'));
    expect(await schemas?.regenerate()).toEqual({ ok: true, written: false });
    expect(schemas?.files()).toContain(typed.path('src/kinds.ts'));
    expect(warnings).toEqual([]);

    // No dependency listed, but a generated module: the project uses it all the same.
    typed.write('package.json', JSON.stringify({ name: 'typed', type: 'module' }));
    expect(usesTypeSchemas(findProject(typed.path('src/server.ts')))).toBe(true);
  });
});
