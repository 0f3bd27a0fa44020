import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { build as viteBuild } from 'vite';
import { fileURLToPath } from 'node:url';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createServer, StartupError } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../core/test/support/paths.ts';
import { bundleServer } from '../../cli/src/bundle/index.ts';
import { extractSchemas, main } from '../src/index.ts';
import { schemas } from './fixtures/plain/src/schemas.gen.ts';
import { Trips } from './fixtures/plain/src/trips.ts';

const FIXTURE = fileURLToPath(new URL('fixtures/plain/', import.meta.url));
const TSCONFIG = `${FIXTURE}tsconfig.json`;

// What every toolchain must serve: the schemas the extractor reads from the fixture's types.
const expectedTools = () => {
  const trips = extractSchemas({ tsconfig: TSCONFIG }).Trips;
  return [
    {
      name: 'plan',
      description: trips.plan.description,
      inputSchema: trips.plan.input,
      outputSchema: trips.plan.output,
    },
    { name: 'miles', description: trips.miles.description, inputSchema: trips.miles.input },
    {
      name: 'schedule',
      description: trips.schedule.description,
      inputSchema: trips.schedule.input,
      outputSchema: trips.schedule.output,
    },
  ];
};

describe('the generated schemas module', () => {
  it('is up to date with the fixture (mcp-fw-schemas --check)', () => {
    const messages: string[] = [];
    expect(main(['-p', TSCONFIG, '--check'], (t) => messages.push(t))).toBe(0);
    expect(messages).toEqual([]);
    expect(
      main(['-p', TSCONFIG, '--check', '--out', `${FIXTURE}missing.gen.ts`], (t) =>
        messages.push(t),
      ),
    ).toBe(1);
    expect(messages.join('')).toMatch(
      /missing\.gen\.ts is missing\. Fix: run mcp-fw-schemas -p .* --out /,
    );
  });
});

describe('a plain-typed provider served with derived schemas (vitest, in process)', () => {
  it('lists the derived schemas and descriptions, calls positional methods, validates with them', async () => {
    const client = await connectTestClient(
      createServer({ name: 'trips', version: '1.0.0', providers: [Trips], schemas }),
      {
        protocolVersion: '2025-11-25',
      },
    );
    const { tools } = await client.listTools();
    expect(
      tools.map(({ name, description, inputSchema, outputSchema }) => ({
        name,
        description,
        inputSchema,
        outputSchema,
      })),
    ).toEqual(expectedTools());
    expect(tools[0].inputSchema).toMatchObject({
      properties: {
        legs: { description: 'The legs, in order' },
        pauseMinutes: { type: 'number', default: 0 },
      },
      required: ['legs'],
    });

    const plan = await client.callTool('plan', {
      legs: [
        { km: 10, mode: 'bike' },
        { km: 5, mode: 'walk' },
      ],
      pauseMinutes: 10,
    });
    expect(plan.structuredContent).toEqual({
      legs: [
        { km: 10, mode: 'bike' },
        { km: 5, mode: 'walk' },
      ],
      minutes: 110,
    });
    expect(await client.callTool('miles', { km: 1.609344 })).toEqual({
      content: [{ type: 'text', text: '1.00 mi' }],
    });

    // Date parameters: date-time strings on the wire, Dates in the method, strings again out.
    const scheduled = await client.callTool('schedule', {
      departs: '2026-11-24T08:00:00.000Z',
      legs: [{ km: 50, mode: 'car' }],
    });
    expect(scheduled.isError).toBeUndefined();
    expect(scheduled.structuredContent).toEqual({
      arrives: '2026-11-24T09:00:00.000Z',
      stops: ['2026-11-24T08:00:00.000Z', '2026-11-24T09:00:00.000Z'],
    });
    const roundTrip = await client.callTool('schedule', {
      departs: '2026-11-24T08:00:00.000Z',
      legs: [{ km: 50, mode: 'car' }],
      returns: '2026-11-25T08:00:00.000Z',
    });
    expect(roundTrip.isError, roundTrip.content[0]?.text).toBeUndefined();
    expect(roundTrip.structuredContent).toMatchObject({ stops: { 2: '2026-11-25T08:00:00.000Z' } });
    const oneWay = await client.callTool('schedule', {
      departs: '2026-11-24T08:00:00.000Z',
      legs: [{ km: 50, mode: 'car' }],
      returns: null,
    });
    expect(oneWay.isError, oneWay.content[0]?.text).toBeUndefined();
    expect(
      (await client.callTool('schedule', { departs: 'tomorrow', legs: [] })).content[0].text,
    ).toBe('Invalid arguments for tool schedule: departs: must match format "date-time"');

    // The derived schema is what validates: wrong enum value and negative distance are refused.
    const bad = await client.callTool('plan', { legs: [{ km: -1, mode: 'boat' }] });
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toMatch(
      /^Invalid arguments for tool plan: legs\.0\.km: must be >= 0/,
    );
    expect((await client.callTool('miles', {})).content[0].text).toBe(
      'Invalid arguments for tool miles: km: is required',
    );

    const prompts = await client.request('prompts/list');
    expect(prompts.prompts).toEqual([
      {
        name: 'suggest',
        description: 'Suggest a way to travel.',
        arguments: [
          { name: 'from', required: true },
          { name: 'to', required: true },
        ],
      },
      {
        name: 'leg',
        description: 'Describe one leg.',
        arguments: [
          { name: 'mode', description: 'How to travel', required: true },
          { name: 'km', description: 'How far, in kilometres', required: false },
        ],
      },
    ]);
    expect(
      (await client.getPrompt('suggest', { from: 'Oslo', to: 'Bergen' })).messages[0].content.text,
    ).toBe('How should I travel from Oslo to Bergen?');
    // Positional prompt parameters, described by @param; a literal union is an enum to validate.
    expect(
      (await client.getPrompt('leg', { mode: 'bike', km: '12' })).messages[0].content.text,
    ).toBe('Describe a 12 km leg by bike.');
    expect((await client.getPrompt('leg', { mode: 'walk' })).messages[0].content.text).toBe(
      'Describe a short km leg by walk.',
    );
    await expect(client.getPrompt('leg', { mode: 'boat' })).rejects.toMatchObject({ code: -32602 });
    const templates = await client.request<{ resourceTemplates: object[] }>(
      'resources/templates/list',
    );
    expect(templates.resourceTemplates[0]).toMatchObject({
      uriTemplate: 'trips://speed/{mode}',
      description: 'The speed of a mode, in km/h.',
    });
    expect((await client.readResource('trips://speed/bike')).contents[0].text).toBe('15');
    await client.close();
  });

  it('refuses to start without schemas, naming the member and the command that generates them', () => {
    expect(() => createServer({ name: 'trips', version: '1.0.0', providers: [Trips] })).toThrow(
      /Trips\.plan takes parameters but declares no schema for them\. Fix: .* or read them from the TypeScript types: run npx mcp-fw-schemas and pass its module's export: createServer\(\{ schemas \}\)\.$/,
    );
  });

  it('gives a subclass the schemas of the methods it inherits', async () => {
    class MoreTrips extends Trips {}
    // Found through its parent's name: the members alone would not single out one entry here.
    const server = createServer({
      name: 'trips',
      version: '1.0.0',
      providers: [MoreTrips],
      schemas: { Copy: schemas.Trips, Trips: schemas.Trips },
    });
    expect(server.registry.tools.map((t) => [t.origin, t.inputSchema])).toEqual([
      ['MoreTrips.plan', schemas.Trips.plan.input],
      ['MoreTrips.miles', schemas.Trips.miles.input],
      ['MoreTrips.schedule', schemas.Trips.schedule.input],
    ]);
  });

  it('finds a renamed class by its members, and says so when the members do not single one out', async () => {
    const renamed = createServer({
      name: 'trips',
      version: '1.0.0',
      providers: [Trips],
      schemas: { Minified: schemas.Trips },
    });
    expect(renamed.registry.tools.map((t) => t.inputSchema)).toEqual([
      schemas.Trips.plan.input,
      schemas.Trips.miles.input,
      schemas.Trips.schedule.input,
    ]);
    expect(() =>
      createServer({
        name: 'trips',
        version: '1.0.0',
        providers: [Trips],
        schemas: { A: schemas.Trips, B: schemas.Trips },
      }),
    ).toThrow(
      'The schemas given to createServer have no class Trips (they have A, B): run npx mcp-fw-schemas again if the class is new; ' +
        'if a bundler renamed it, keep class names (esbuild: keepNames: true).',
    );
  });

  it('refuses generated schemas older than the signature', () => {
    const stale = { Trips: { ...schemas.Trips, miles: { ...schemas.Trips.miles, params: [] } } };
    expect(() =>
      createServer({ name: 'trips', version: '1.0.0', providers: [Trips], schemas: stale }),
    ).toThrow(
      'Trips.miles takes 2 parameters but its generated schema names 0 (none): the signature changed after the schemas were generated. Fix: run npx mcp-fw-schemas again.',
    );
    expect(() =>
      createServer({
        name: 'trips',
        version: '1.0.0',
        providers: [Trips],
        schemas: { Trips: [] } as never,
      }),
    ).toThrow(StartupError);
  });
});

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function listOverStdio(kind: 'v1' | 'v2', command: string, args: string[], cwd: string) {
  const params = { command, args, cwd, stderr: 'pipe' as const };
  const info = { name: 'toolchain-matrix', version: '1.0.0' };
  const client = kind === 'v2' ? new ClientV2(info) : new ClientV1(info);
  await client.connect(kind === 'v2' ? new StdioV2(params) : new StdioV1(params));
  close = () => client.close();
  const { tools } = await client.listTools();
  const plan = await client.callTool({
    name: 'plan',
    arguments: { legs: [{ km: 25, mode: 'car' }] },
  });
  return {
    tools: tools.map(({ name, description, inputSchema, outputSchema }) => ({
      name,
      description,
      inputSchema,
      outputSchema,
    })),
    plan,
  };
}

describe('the same schemas under every toolchain, to the official clients over stdio', () => {
  it('tsx (no decorator metadata; standard decorators from the fixture tsconfig), @modelcontextprotocol/client 2.x', async () => {
    const served = await listOverStdio(
      'v2',
      process.execPath,
      ['--import', 'tsx', '--conditions=@mcp-fw/source', 'src/main.ts'],
      FIXTURE,
    );
    expect(served.tools).toEqual(expectedTools());
    expect(served.plan.structuredContent).toEqual({ legs: [{ km: 25, mode: 'car' }], minutes: 30 });
  });

  it('tsc 7 + node (standard decorators), @modelcontextprotocol/sdk 1.x', async () => {
    execFileSync(
      process.execPath,
      [`${REPO_ROOT}/node_modules/typescript/bin/tsc`, '-p', TSCONFIG],
      { stdio: 'pipe' },
    );
    const served = await listOverStdio('v1', process.execPath, ['dist/main.js'], FIXTURE);
    expect(served.tools).toEqual(expectedTools());
    expect(served.plan.structuredContent).toEqual({ legs: [{ km: 25, mode: 'car' }], minutes: 30 });
  });

  it('esbuild bundle, minified with keepNames (standard decorators lowered by esbuild), @modelcontextprotocol/client 2.x', async () => {
    await build({
      entryPoints: [`${FIXTURE}src/main.ts`],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'es2022',
      minify: true,
      keepNames: true,
      outfile: `${FIXTURE}dist/bundle.mjs`,
      logLevel: 'silent',
    });
    const served = await listOverStdio('v2', process.execPath, ['dist/bundle.mjs'], FIXTURE);
    expect(served.tools).toEqual(expectedTools());
    expect(served.plan.structuredContent).toEqual({ legs: [{ km: 25, mode: 'car' }], minutes: 30 });
  });

  it('esbuild bundle minified without keepNames (the class renamed): found by its members, same schemas', async () => {
    await build({
      entryPoints: [`${FIXTURE}src/main.ts`],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'es2022',
      minify: true,
      outfile: `${FIXTURE}dist/renamed.mjs`,
      logLevel: 'silent',
    });
    expect(readFileSync(`${FIXTURE}dist/renamed.mjs`, 'utf8')).not.toMatch(/class Trips\b/);
    const served = await listOverStdio('v2', process.execPath, ['dist/renamed.mjs'], FIXTURE);
    expect(served.tools).toEqual(expectedTools());
  });

  it('vite 8 SSR build (oxc, legacy decorators), @modelcontextprotocol/sdk 1.x', async () => {
    await viteBuild({
      root: FIXTURE,
      configFile: false,
      logLevel: 'silent',
      oxc: { decorator: { legacy: true } },
      build: { ssr: 'src/main.ts', outDir: 'dist/vite', target: 'es2022', emptyOutDir: true },
    });
    const served = await listOverStdio('v1', process.execPath, ['dist/vite/main.js'], FIXTURE);
    expect(served.tools).toEqual(expectedTools());
    expect(served.plan.structuredContent).toEqual({ legs: [{ km: 25, mode: 'car' }], minutes: 30 });
  });

  it("mcp-fw build --bundle (tsc, then the CLI's bundle behind its V8 code cache launcher), @modelcontextprotocol/client 2.x", async () => {
    const cli = `${REPO_ROOT}/packages/cli/bin/mcp-fw.js`;
    execFileSync(process.execPath, [cli, 'build', '--bundle', '--entry', 'dist/main.js'], {
      cwd: FIXTURE,
      stdio: 'pipe',
    });
    for (const entry of ['dist/main.js', 'dist/main.launch.cjs']) {
      const served = await listOverStdio('v2', process.execPath, [entry], FIXTURE);
      expect(served.tools, entry).toEqual(expectedTools());
      expect(served.plan.structuredContent).toEqual({
        legs: [{ km: 25, mode: 'car' }],
        minutes: 30,
      });
      await close?.();
      close = undefined;
    }
  });

  it('mcp-fw dev (its tsx child, hot reload), @modelcontextprotocol/sdk 1.x', async () => {
    const cli = `${REPO_ROOT}/packages/cli/bin/mcp-fw.js`;
    const served = await listOverStdio(
      'v1',
      process.execPath,
      [cli, 'dev', 'src/server.ts'],
      FIXTURE,
    );
    expect(served.tools).toEqual(expectedTools());
    expect(served.plan.structuredContent).toEqual({ legs: [{ km: 25, mode: 'car' }], minutes: 30 });
  });
});

// Two providers whose members are the same names (so the by-members fallback cannot tell them
// apart), and a function also named Notes imported first, so the bundler renames the class.
const NAMES_PROJECT: Record<string, string> = {
  'src/colliding.ts': `export function Notes(): string {\n  return 'Notes and tasks.';\n}\n`,
  'src/notes.ts': `import { Tool } from '@mcp-fw/core';
export class Notes {
  /**
   * Add a note.
   * @param text The note
   */
  @Tool({ name: 'add_note' })
  add(text: string): string {
    return \`note: \${text}\`;
  }
}
`,
  'src/tasks.ts': `import { Tool } from '@mcp-fw/core';
export class Tasks {
  /**
   * Add a task.
   * @param title The task
   * @param due When it is due
   */
  @Tool({ name: 'add_task' })
  add(title: string, due?: Date): string {
    return \`task: \${title}\${due ? \` by \${due.toISOString()}\` : ''}\`;
  }
}
`,
  'src/server.ts': `import { Notes as instructions } from './colliding.js';
import { createServer } from '@mcp-fw/core';
import { Notes } from './notes.js';
import { schemas } from './schemas.gen.js';
import { Tasks } from './tasks.js';
export const server = createServer({ name: 'names', version: '1.0.0', instructions: instructions(), providers: [Notes, Tasks], schemas });
`,
};

describe('the CLI bundler (mcp-fw build --bundle) keeps class names', () => {
  it('serves the derived schemas of a class the bundler had to rename (a name clash), to @modelcontextprotocol/client 2.x', async () => {
    const dir = `${FIXTURE}dist/names/`;
    rmSync(dir, { recursive: true, force: true });
    for (const [file, text] of Object.entries(NAMES_PROJECT)) {
      mkdirSync(`${dir}${file.slice(0, file.lastIndexOf('/'))}`, { recursive: true });
      writeFileSync(`${dir}${file}`, text);
    }
    writeFileSync(`${dir}tsconfig.json`, readFileSync(TSCONFIG, 'utf8'));
    const messages: string[] = [];
    expect(main(['-p', `${dir}tsconfig.json`], (t) => messages.push(t))).toBe(0);
    const generated = extractSchemas({ tsconfig: `${dir}tsconfig.json` });

    const { launcherFile, bundleFile } = await bundleServer({
      entry: `${dir}src/server.ts`,
      outDir: `${dir}out`,
    });
    // The clash is real: the bundle gives the class another binding than the function's.
    expect(readFileSync(bundleFile, 'utf8')).toMatch(/\bNotes\d+\b/);
    const params = {
      command: process.execPath,
      args: [launcherFile],
      cwd: dir,
      stderr: 'pipe' as const,
    };
    const client = new ClientV2({ name: 'bundle-names', version: '1.0.0' });
    await client.connect(new StdioV2(params));
    close = () => client.close();
    const { tools } = await client.listTools();
    expect(
      tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    ).toEqual([
      { name: 'add_note', description: 'Add a note.', inputSchema: generated.Notes.add.input },
      { name: 'add_task', description: 'Add a task.', inputSchema: generated.Tasks.add.input },
    ]);
    expect(await client.callTool({ name: 'add_note', arguments: { text: 'milk' } })).toMatchObject({
      content: [{ type: 'text', text: 'note: milk' }],
    });
  });
});
