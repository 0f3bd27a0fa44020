// Issue #16, part 3: with "experimentalDecorators" off, tsc rejects @Arg (TS1206) but under
// --noCheck (how `mcp-fw dev` compiles) it emits the class without it, and @Tool then runs with
// TC39 semantics. The startup error must say so and name the flag, not ask for the @Arg the
// user already wrote.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { compileFixtures, removeCompiledFixtures } from './support/compile-fixtures.ts';
import { REPO_ROOT } from './support/paths.ts';

const run = promisify(execFile);
const FIXTURE = join(REPO_ROOT, 'packages/core/test/fixtures/errors');
const TSX = join(REPO_ROOT, 'node_modules/.bin/tsx');
const TSC = join(REPO_ROOT, 'node_modules/.bin/tsc');

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  removeCompiledFixtures();
});

/** Compiles the fixture as `mcp-fw dev` does (tsc --noCheck), runs it, returns its report. */
async function compileAndServe(experimentalDecorators: boolean): Promise<Record<string, any>> {
  const out = await compileFixtures(
    `dropped-decorators-${experimentalDecorators}`,
    [join(FIXTURE, 'arg-tools.ts'), join(FIXTURE, 'serve-arg-tools.ts')],
    {
      experimentalDecorators,
      noCheck: true,
    },
  );
  // tsx only so that @mcp-fw/core resolves to its TypeScript sources; the fixture is tsc's output.
  const modes = join(REPO_ROOT, 'packages/core/test/fixtures/modes');
  const { stdout } = await run(
    TSX,
    [
      '--conditions=@mcp-fw/source',
      '--tsconfig',
      join(modes, `tsconfig.${experimentalDecorators ? 'legacy' : 'tc39'}.json`),
      join(out, 'test/fixtures/errors/serve-arg-tools.js'),
    ],
    { cwd: REPO_ROOT },
  );
  return JSON.parse(stdout);
}

describe('issue #16: @Arg dropped because "experimentalDecorators" is off', () => {
  it('tsc itself rejects the parameter decorator in that mode (TS1206), which --noCheck hides', async () => {
    const cache = join(REPO_ROOT, 'node_modules/.cache');
    mkdirSync(cache, { recursive: true });
    const dir = mkdtempSync(join(cache, 'mcp-fw-dropped-decorators-check-'));
    scratch.push(dir);
    const tsconfig = join(dir, 'tsconfig.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        extends: join(REPO_ROOT, 'tsconfig.base.json'),
        compilerOptions: {
          rootDir: join(REPO_ROOT, 'packages/core'),
          noEmit: true,
          composite: false,
          incremental: false,
          experimentalDecorators: false,
          emitDecoratorMetadata: false,
        },
        files: [join(FIXTURE, 'arg-tools.ts')],
      }),
    );
    const failure = await run(TSC, ['-p', tsconfig, '--pretty', 'false'], { cwd: REPO_ROOT }).then(
      () => undefined,
      (error: { stdout: string }) => error.stdout,
    );
    expect(failure).toMatch(/arg-tools\.ts\(8,\d+\): error TS1206/);
  });

  it('the server refuses to start and names the flag and both fixes', async () => {
    const report = await compileAndServe(false);
    expect(report.code).toBe('MISSING_SCHEMA');
    const message: string = report.message;
    // The cause: which member, which mode, which flag, and why the @Arg the user wrote is gone.
    expect(message).toContain('Greeter.greet takes parameters but declares no schema');
    expect(message).toContain(
      'compiled with standard (TC39) decorators because "experimentalDecorators" is off',
    );
    expect(message).toContain('parameter decorators such as @Arg are dropped');
    expect(message).toContain('TS1206');
    // The fixes: the flag (with metadata), or `input:`, which works in both modes.
    expect(message).toContain(
      'Fix: set "experimentalDecorators": true (and "emitDecoratorMetadata": true) in tsconfig.json',
    );
    expect(message).toContain('@Tool({ input: z.object({ ... }) }), which works in both modes');
    // Not the old, misleading advice to add the @Arg that is already there.
    expect(message).not.toContain("name each parameter with @Arg('name', schema)");
  });

  it('the same class compiled with the flag serves the tool', async () => {
    const report = await compileAndServe(true);
    expect(report.tools).toEqual([
      {
        name: 'greet',
        description: 'Greets someone by name',
        inputSchema: {
          type: 'object',
          properties: { name: { type: 'string' } },
          required: ['name'],
        },
      },
    ]);
    expect(report.result).toEqual({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
  });
});
