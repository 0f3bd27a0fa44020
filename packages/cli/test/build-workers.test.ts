// `mcp-fw build --target workers` refusing what a Worker cannot run, at build time, with the
// cause and the fix (build-workers-workerd.test.ts serves what it builds in real workerd).
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from './support/cleanups.ts';
import { runCli } from './support/cli-process.ts';
import { type TempProject, templateProject } from './support/temp-project.ts';

const cleanup = cleanupAfterEach();

function workersTemplate(): TempProject {
  const project = templateProject('workers');
  cleanup(() => project.remove());
  return project;
}

describe('mcp-fw build --target workers', () => {
  it('a project that imports node:fs at top level fails the build naming the module, its importer and the fix', async () => {
    const project = workersTemplate();
    project.write(
      'src/temperatures.ts',
      `import { readFileSync } from 'node:fs';\nexport const scale = () => readFileSync('scale.txt', 'utf8');\n${project.read('src/temperatures.ts')}`,
    );
    const run = await runCli(['build', '--target', 'workers'], project.dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('node:fs (imported by dist/temperatures.js)');
    expect(run.stderr).toContain('Workers cannot serve at top level');
    expect(run.stderr).toMatch(/await import\(\)/);
    expect(() => project.read('wrangler.jsonc')).toThrow();
  }, 60_000);

  it('a stdio-only entry fails the build: Workers have no stdio, export the server instead', async () => {
    const project = workersTemplate();
    project.write(
      'src/main.ts',
      "import { serveFromArgs } from '@mcp-fw/core/serve';\nimport { server } from './server.js';\n\nawait serveFromArgs(server);\n",
    );
    const run = await runCli(
      ['build', '--target', 'workers', '--entry', 'dist/main.js'],
      project.dir,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('dist/main.js exports no server and no module worker');
    expect(run.stderr).toContain('neither stdio nor a socket');
    expect(run.stderr).toContain('export const server = createServer(...)');
  }, 60_000);

  it('a module worker that does not export the Durable Object class its wrangler.jsonc binds fails the build naming the class, and the config is kept', async () => {
    const project = workersTemplate();
    const config = `// the project's own
{
  "name": "temperatures",
  "main": "src/worker.ts",
  "durable_objects": { "bindings": [{ "name": "MCP_SESSIONS", "class_name": "Sessions" }] },
}
`;
    project.write('wrangler.jsonc', config);
    const run = await runCli(['build', '--target', 'workers'], project.dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'dist/worker.js does not export Sessions, the Durable Object class the wrangler config binds',
    );
    expect(run.stderr).toContain('export const Sessions = worker.SessionObject;');
    expect(project.read('wrangler.jsonc')).toBe(config);
  }, 60_000);

  it('an unknown --target is refused before anything is built', async () => {
    const project = workersTemplate();
    const run = await runCli(['build', '--target', 'lambda'], project.dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--target lambda is not a target');
    expect(run.stderr).toContain('--target workers');
  }, 30_000);
});
