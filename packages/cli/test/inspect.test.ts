import type { createServer } from '@mcp-fw/core';
import { connectTestClient } from '@mcp-fw/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { server as calculator } from '../../../examples/calculator/src/server.ts';
import { server as logistics } from '../../../examples/logistics/src/server.ts';
import { server as prompts } from '../../../examples/prompts/src/server.ts';
import { runCli } from './support/cli-process.ts';
import { exampleProject, fixtureProject, type TempProject } from './support/temp-project.ts';

const projects: TempProject[] = [];
afterAll(() => projects.forEach((p) => p.remove()));
function example(name: string): TempProject {
  const project = exampleProject(name);
  projects.push(project);
  return project;
}

/** What a client lists from the server in memory (vitest compiles it with metadata too). */
async function listed(server: ReturnType<typeof createServer>) {
  const client = await connectTestClient(server);
  const result = {
    tools: (await client.request('tools/list')).tools,
    prompts: (await client.request('prompts/list')).prompts,
    resources: (await client.request('resources/list')).resources,
    resourceTemplates: (await client.request('resources/templates/list')).resourceTemplates,
  };
  await client.close();
  return result;
}

describe('mcp-fw inspect', () => {
  it('prints the calculator example as tables', async () => {
    const run = await runCli(['inspect', 'src/server.ts'], example('calculator').dir);
    expect(run).toEqual({
      code: 0,
      stderr: '',
      stdout: `calculator 0.1.0
Arithmetic on two numbers. Every tool returns { result, expression }.

Tools (4)
  add — Adds two numbers
      a  number  required  The first operand
      b  number  required  The second operand
      returns result: number, expression: string
  subtract — Subtracts b from a
      a  number  required  The first operand
      b  number  required  The second operand
      returns result: number, expression: string
  multiply — Multiplies two numbers
      a  number  required  The first operand
      b  number  required  The second operand
      returns result: number, expression: string
  divide — Divides a by b
      a  number  required  The first operand
      b  number  required  The second operand
      returns result: number, expression: string

Resources (0)
  none

Resource templates (0)
  none

Prompts (0)
  none
`,
    });
  });

  it.each([
    ['calculator', calculator],
    ['logistics', logistics],
    ['prompts', prompts],
  ] as const)('prints the %s example as the JSON clients list (--json)', async (name, server) => {
    const run = await runCli(['inspect', 'src/server.ts', '--json'], example(name).dir);
    expect(run.code).toBe(0);
    const {
      serverInfo,
      protocolVersion,
      instructions: _instructions,
      ...lists
    } = JSON.parse(run.stdout);
    expect(serverInfo.name).toBe(name);
    expect(protocolVersion).toBe('2025-11-25');
    expect(lists).toEqual(await listed(server));
  });

  it('fails with status 1 and the startup error when the server is invalid', async () => {
    const project = fixtureProject('invalid');
    projects.push(project);
    const run = await runCli(['inspect', 'src/server.ts'], project.dir);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `mcp-fw: src/server.ts failed to load: StartupError: Duplicate tool name "ping": First.ping and Second.ping. ` +
        `Tool names must be unique; rename one with @Tool({ name: '...' }). (at <anonymous> (${project.path('src/server.ts')}:18:23))\n` +
        'Fix the error and run mcp-fw inspect again.\n',
    });
  });

  it('fails with status 1 when the module exports no server', async () => {
    const project = example('calculator');
    const run = await runCli(['inspect', 'src/calculator.ts'], project.dir);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'mcp-fw: src/calculator.ts exports no MCP server (it exports Calculator): export it as `server` ' +
        '(export const server = createServer(...)) or as the default export, either the server or a function without ' +
        'parameters that returns it\nFix the error and run mcp-fw inspect again.\n',
    });
  });

  it('takes a project directory for its src/server.ts', async () => {
    const project = example('calculator');
    const byFile = await runCli(['inspect', 'src/server.ts'], project.dir);
    expect(byFile.code).toBe(0);
    expect(await runCli(['inspect', '.'], project.dir)).toEqual(byFile);
    const run = await runCli(['inspect', 'src'], project.dir);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'mcp-fw: src is a directory without src/server.ts.\nPass the module that exports your server, e.g. src/server.ts (or dist/server.js once built).\n',
    });
  });

  it('loads a default export that is a factory whose parameters have defaults (the weather example)', async () => {
    const run = await runCli(['inspect', '.'], example('weather').dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^weather 0\.1\.0\n/);
    expect(run.stdout).toContain('Tools (2)\n  get_alerts — ');
  });

  it('awaits an async factory, and refuses one that needs arguments before calling it', async () => {
    const project = example('calculator');
    const server = project.read('src/server.ts').replace('export const server =', 'const made =');
    project.write(
      'src/async-factory.ts',
      `${server}\nexport default async function make() {\n  await new Promise((r) => setTimeout(r, 10));\n  return made;\n}\n`,
    );
    const byFactory = await runCli(['inspect', 'src/async-factory.ts'], project.dir);
    expect(byFactory).toEqual(await runCli(['inspect', 'src/server.ts'], project.dir));
    project.write(
      'src/needs-args.ts',
      `${server}\nexport function server(port: number, host: string) {\n  throw new Error(\`never called: \${port} \${host}\`);\n}\n`,
    );
    expect(await runCli(['inspect', 'src/needs-args.ts'], project.dir)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "mcp-fw: src/needs-args.ts's server export is a function server that takes 2 arguments, which mcp-fw cannot supply: " +
        'give its parameters defaults, or export a function without parameters that calls it\nFix the error and run mcp-fw inspect again.\n',
    });
    project.write('src/returns-nothing.ts', 'export default () => ({ name: "not a server" });\n');
    expect((await runCli(['inspect', 'src/returns-nothing.ts'], project.dir)).stderr).toBe(
      "mcp-fw: src/returns-nothing.ts's default export (the function default) returned no MCP server: return the server createServer(...) made\n" +
        'Fix the error and run mcp-fw inspect again.\n',
    );
  });

  it('fails with status 1 and the compiler error on a syntax error', async () => {
    const project = example('calculator');
    const broken = `${project.read('src/server.ts')}\nexport const broken = ;\n`;
    project.write('src/server.ts', broken);
    const line = broken.split('\n').indexOf('export const broken = ;') + 1;
    const run = await runCli(['inspect', 'src/server.ts'], project.dir);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `mcp-fw: src/server.ts does not compile: src/server.ts(${line},23): error TS1109: Expression expected.\nFix the error and run mcp-fw inspect again.\n`,
    });
  });
});
