import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveHttp } from '@mcp-fw/core/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server as calculator } from '../../../examples/calculator/src/server.ts';
import { runCli } from './support/cli-process.ts';
import { REPO_ROOT } from './support/paths.ts';

// `mcp-fw client-types` against running examples (the weather example's built program over
// stdio, the calculator over HTTP), then the real compiler on code that uses the
// written types through typedClient<Tools>(): a correct use compiles, a wrong argument does not.

const TSC = join(REPO_ROOT, 'node_modules/.bin/tsc');
const WEATHER = `"${process.execPath}" ${join(REPO_ROOT, 'examples/weather/dist/main.js')}`;
let calculatorHttp: Awaited<ReturnType<typeof serveHttp>>;
let dir: string;

beforeAll(async () => {
  calculatorHttp = await serveHttp(calculator, { port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'mcp-fw-client-types-'));
  mkdirSync(join(dir, 'node_modules'));
  for (const name of readdirSync(join(REPO_ROOT, 'node_modules')))
    if (!name.startsWith('.'))
      symlinkSync(join(REPO_ROOT, 'node_modules', name), join(dir, 'node_modules', name));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        verbatimModuleSyntax: true,
        types: [],
      },
    }),
  );
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
});
afterAll(async () => {
  await calculatorHttp?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Compiles `use.ts` (with the written types beside it); the compiler's exit status and output. */
function compile(code: string): { status: number | null; output: string } {
  writeFileSync(join(dir, 'use.ts'), code);
  const run = spawnSync(TSC, ['-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('mcp-fw client-types', () => {
  it('writes the types of a server’s tools from their input and output schemas', async () => {
    const run = await runCli(
      ['client-types', WEATHER, '--out', join(dir, 'weather-tools.ts')],
      REPO_ROOT,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('types for 2 tools');
    const calc = await runCli(
      ['client-types', calculatorHttp.url, '--out', join(dir, 'calc-tools.ts')],
      REPO_ROOT,
    );
    expect(calc.code).toBe(0);
  });

  it('a correct typedClient use compiles, outputs typed', () => {
    const { status, output } = compile(`
import { connect, typedClient } from '@mcp-fw/client';
import type { Tools } from './weather-tools.js';
import type { Tools as CalcTools } from './calc-tools.js';

export async function forecast(url: string): Promise<string> {
  const client = typedClient<Tools>(await connect(url));
  const result = await client.tools.get_forecast({ latitude: 59.9, longitude: 10.7 });
  return String(result.content[0]?.text);
}

export async function sum(url: string): Promise<number | undefined> {
  const calc = typedClient<CalcTools>(await connect(url));
  const result = await calc.tools.add({ a: 1, b: 2 });
  const value: number | undefined = result.structuredContent?.result;
  return value;
}
`);
    expect(output).toBe('');
    expect(status).toBe(0);
  });

  it('a wrong-argument use fails to compile, naming the argument', () => {
    const { status, output } = compile(`
import { connect, typedClient } from '@mcp-fw/client';
import type { Tools } from './weather-tools.js';

export async function forecast(url: string): Promise<void> {
  const client = typedClient<Tools>(await connect(url));
  await client.tools.get_forecast({ latitude: '59.9', longitude: 10.7 });
}
`);
    expect(status).not.toBe(0);
    expect(output).toContain('use.ts');
    expect(output).toMatch(/latitude|'string' is not assignable to type 'number'/);
  });

  it('an unknown tool fails to compile', () => {
    const { status, output } = compile(`
import { connect, typedClient } from '@mcp-fw/client';
import type { Tools } from './weather-tools.js';

export async function forecast(url: string): Promise<void> {
  const client = typedClient<Tools>(await connect(url));
  await client.tools.get_forcast({ latitude: 1, longitude: 2 });
}
`);
    expect(status).not.toBe(0);
    expect(output).toContain('get_forcast');
  });
});
