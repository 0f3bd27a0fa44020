import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli-process.ts';
import { REPO_ROOT } from './support/paths.ts';
import { fixtureProject, type TempProject } from './support/temp-project.ts';

const VENDOR = join(REPO_ROOT, 'packages/cli/vendor/registry-server-json');
const schemaText = readFileSync(join(VENDOR, 'server.schema.json'));
const ajv = new Ajv({ strict: false, allErrors: true });
(addFormats as unknown as { default: (a: Ajv) => void }).default(ajv);
const valid = ajv.compile(JSON.parse(schemaText.toString()));

const projects: TempProject[] = [];
afterAll(() => projects.forEach((p) => p.remove()));
function publishable(): TempProject {
  const project = fixtureProject('publishable');
  projects.push(project);
  return project;
}
const MCPB_URL = 'https://github.com/acme/weather/releases/download/v1.4.0/weather.mcpb';

it('the vendored 2025-12-11 schema matches the checksum its SOURCE.md records', () => {
  const digest = createHash('sha256').update(schemaText).digest('hex');
  const source = readFileSync(join(VENDOR, 'SOURCE.md'), 'utf8');
  expect(source).toContain(`SHA-256: \`${digest}\``);
  expect(JSON.parse(schemaText.toString()).$id).toBe(
    'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
  );
});

describe('mcp-fw publish --dry-run', () => {
  it('writes a server.json valid for an npm, an mcpb and a remote server, env vars from the declared settings', async () => {
    const project = publishable();
    const bundle = join(project.dir, 'weather.mcpb');
    writeFileSync(bundle, 'not really a zip, but bytes to hash');
    const run = await runCli(
      [
        'publish',
        'src/server.ts',
        '--dry-run',
        '--remote',
        'https://{tenant}.weather.example/mcp',
        '--mcpb',
        MCPB_URL,
        '--mcpb-file',
        'weather.mcpb',
      ],
      project.dir,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('wrote server.json (io.github.acme/weather 1.4.0)');
    const document = JSON.parse(readFileSync(join(project.dir, 'server.json'), 'utf8'));
    expect(valid(document), ajv.errorsText(valid.errors)).toBe(true);
    const env = [
      {
        name: 'WEATHER_API_KEY',
        description: 'API key of the weather service',
        isRequired: true,
        isSecret: true,
      },
      {
        name: 'WEATHER_UNITS',
        description: 'metric or imperial',
        isRequired: false,
        isSecret: false,
        default: 'metric',
      },
    ];
    expect(document).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: 'io.github.acme/weather',
      description: 'Forecasts and alerts for any city',
      version: '1.4.0',
      title: 'Weather',
      websiteUrl: 'https://acme.example/weather',
      repository: { url: 'https://github.com/acme/weather', source: 'github' },
      icons: [{ src: 'https://acme.example/weather.png', mimeType: 'image/png', sizes: ['48x48'] }],
      packages: [
        {
          registryType: 'npm',
          registryBaseUrl: 'https://registry.npmjs.org',
          identifier: '@acme/weather-mcp',
          version: '1.4.0',
          transport: { type: 'stdio' },
          environmentVariables: env,
        },
        {
          registryType: 'mcpb',
          identifier: MCPB_URL,
          version: '1.4.0',
          fileSha256: createHash('sha256')
            .update('not really a zip, but bytes to hash')
            .digest('hex'),
          transport: { type: 'stdio' },
          environmentVariables: env,
        },
      ],
      remotes: [
        {
          type: 'streamable-http',
          url: 'https://{tenant}.weather.example/mcp',
          variables: { tenant: { description: 'The tenant of your deployment', isRequired: true } },
        },
      ],
    });
  }, 60_000);

  it('a package.json without the mcpName the registry checks fails, naming the line to add', async () => {
    const project = publishable();
    const file = join(project.dir, 'package.json');
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    delete pkg.mcpName;
    writeFileSync(file, JSON.stringify(pkg));
    const run = await runCli(['publish', 'src/server.ts', '--dry-run'], project.dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('package.json has no "mcpName"');
    expect(run.stderr).toContain('Add "mcpName": "io.github.acme/weather" to package.json');
  }, 60_000);

  it('without --dry-run it publishes nothing and says what to run', async () => {
    const run = await runCli(['publish', 'src/server.ts'], publishable().dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('mcp-fw publish --dry-run');
  }, 60_000);
});
