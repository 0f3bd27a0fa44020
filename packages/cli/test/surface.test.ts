import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SURFACE_FINGERPRINT_KEY, type McpFwServer } from '@mcp-fw/core';
import { serveHttp } from '@mcp-fw/core/node';
import { compareSurfaces } from '../src/commands/surface-diff.ts';
import type { SurfaceLock } from '../src/commands/surface-lock.ts';
import { cliEnv, runCli } from './support/cli-process.ts';
import { FIXTURES } from './support/paths.ts';

// The fixture server reshaped by SURFACE_VARIANT: `base` is locked, each other is one change.
const dir = join(FIXTURES, 'surface');
const tmp = mkdtempSync(join(tmpdir(), 'mcp-fw-surface-'));
const lock = join(tmp, 'mcp-surface.lock.json');
const check = (variant: string, lockFile = lock) =>
  runCli(
    ['surface', 'check', 'server.mjs', '--lock', lockFile],
    dir,
    cliEnv({ SURFACE_VARIANT: variant }),
  );
const ERAS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

beforeAll(async () => {
  const run = await runCli(['surface', 'snapshot', 'server.mjs', '--lock', lock], dir);
  expect(run.code, run.stderr).toBe(0);
}, 30_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('mcp-fw surface', { timeout: 30_000 }, () => {
  it('snapshot writes tools, resources and prompts with their schemas per era to the lock file', () => {
    const written = JSON.parse(readFileSync(lock, 'utf8')) as SurfaceLock;
    expect(Object.keys(written.eras)).toEqual(ERAS);
    const era = written.eras['2025-11-25'];
    expect(Object.keys(era?.tools ?? {})).toEqual(['close_issue', 'list_issues']);
    expect(era?.tools.list_issues?.inputSchema).toMatchObject({ required: ['repo'] });
    expect(era?.tools.list_issues?.outputSchema).toBeDefined();
    // 2024-11-05 has no output schemas on the wire.
    expect(written.eras['2024-11-05']?.tools.list_issues?.outputSchema).toBeUndefined();
    expect(Object.keys(era?.prompts ?? {})).toEqual(['triage']);
    expect(Object.keys(era?.resources ?? {})).toEqual(['docs://readme']);
  });

  it('check passes on an unchanged server', async () => {
    const run = await check('base');
    const { fingerprint } = JSON.parse(readFileSync(lock, 'utf8')) as SurfaceLock;
    expect(run).toMatchObject({
      code: 0,
      stdout: `no changes against ${lock}\nfingerprint unchanged: ${fingerprint}\n`,
    });
  });

  it("the Server Card's _meta carries the fingerprint mcp-fw surface snapshot records", async () => {
    const { fingerprint } = JSON.parse(readFileSync(lock, 'utf8')) as SurfaceLock;
    expect(fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    const { server } = (await import(join(dir, 'server.mjs'))) as { server: McpFwServer };
    const handle = await serveHttp(server, { port: 0 });
    try {
      const card = (await (await fetch(`${handle.url}/server-card`)).json()) as {
        _meta?: Record<string, unknown>;
      };
      expect(card._meta).toEqual({ [SURFACE_FINGERPRINT_KEY]: fingerprint });
    } finally {
      await handle.close();
    }
  });

  it('the fingerprint changes with the surface, and check names both', async () => {
    const { fingerprint } = JSON.parse(readFileSync(lock, 'utf8')) as SurfaceLock;
    const run = await check('additive');
    expect(run.stdout).toMatch(
      new RegExp(`fingerprint: sha256:[0-9a-f]{64} \\(the lock has ${fingerprint}\\)`),
    );
    expect(run.stdout).not.toContain(`fingerprint: ${fingerprint} `);
  });

  it('check fails on a removed member, naming it per era', async () => {
    const run = await check('removed');
    expect(run.code).toBe(1);
    for (const era of ERAS) expect(run.stderr).toContain(`${era} tool close_issue: removed`);
  });

  it('check fails on a new required argument', async () => {
    const run = await check('required');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('2025-11-25 tool list_issues: new required argument "state"');
  });

  it('check fails on a narrowed type: enum shrunk', async () => {
    const run = await check('enum');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('tool list_issues: argument "state" narrowed (enum lost "all")');
  });

  it('check fails on a narrowed type: type changed', async () => {
    const run = await check('type');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'tool list_issues: argument "limit" narrowed (type changed from integer to string)',
    );
  });

  it('check fails on a changed output schema', async () => {
    const run = await check('output');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('2025-06-18 tool list_issues: output schema changed');
    expect(run.stderr).not.toContain('2024-11-05 tool list_issues: output schema');
  });

  it('check passes on additive changes (new tool, new optional argument, widened enum and type), listing them', async () => {
    const run = await check('additive');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('2026-07-28 tool search_issues: added');
    expect(run.stdout).toContain('2026-07-28 tool list_issues: new optional argument "label"');
  });

  it('check without a lock file says to run surface snapshot', async () => {
    const run = await check('base', join(tmp, 'missing.json'));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no lock file at .*missing\.json[\s\S]*mcp-fw surface snapshot/);
  });

  it('check refuses a file that is not a surface lock', async () => {
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, '{"hello": 1}');
    const run = await check('base', bad);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('is not an mcp-fw surface lock');
  });
});

describe('compareSurfaces', () => {
  const surface = (tools: SurfaceLock['eras'][string]['tools'], prompts = {}) =>
    ({
      lockVersion: 1,
      server: { name: 's', version: '1' },
      eras: { '2025-11-25': { tools, prompts, resources: {}, resourceTemplates: {} } },
    }) as SurfaceLock;

  it('a new required prompt argument and a removed output schema are breaking; integer to number is not', () => {
    const before = surface(
      {
        t: {
          inputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
          outputSchema: { type: 'object' },
        },
      },
      { p: { arguments: [{ name: 'a', required: false }] } },
    );
    const after = surface(
      { t: { inputSchema: { type: 'object', properties: { n: { type: 'number' } } } } },
      { p: { arguments: [{ name: 'a', required: true }] } },
    );
    expect(compareSurfaces(before, after)).toEqual([
      { breaking: true, message: '2025-11-25 tool t: output schema removed' },
      { breaking: true, message: '2025-11-25 prompt p: new required argument "a"' },
    ]);
  });
});
