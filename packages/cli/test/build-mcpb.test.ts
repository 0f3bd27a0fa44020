import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { mcpbManifest } from '../src/bundle/mcpb-manifest.ts';
import { cleanupAfterEach } from './support/cleanups.ts';
import { cliEnv, runCli } from './support/cli-process.ts';
import { REPO_ROOT } from './support/paths.ts';
import { exampleProject } from './support/temp-project.ts';

const cleanup = cleanupAfterEach();

/** The official MCPB command line (`@anthropic-ai/mcpb`), run with this Node. */
function mcpb(args: readonly string[], cwd: string) {
  const cli = join(REPO_ROOT, 'node_modules/@anthropic-ai/mcpb/dist/cli/cli.js');
  return spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', timeout: 30_000 });
}

/** A host's substitution of `${__dirname}` and `${user_config.X}` in one mcp_config string. */
function substitute(text: string, dir: string, userConfig: Record<string, string>): string {
  return text
    .replaceAll('${__dirname}', dir)
    .replace(/\$\{user_config\.(\w+)\}/g, (_, key: string) => userConfig[key] ?? '');
}

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('mcp-fw build --mcpb: the manifest', () => {
  it('declared settings become user_config entries passed to the server as ${user_config.X} env', () => {
    const { manifest, files } = mcpbManifest({
      serverInfo: {
        name: 'weather',
        version: '1.4.0',
        title: 'Weather',
        description: 'Forecasts',
        icons: [{ src: `data:image/png;base64,${PNG_1X1}`, mimeType: 'image/png', sizes: ['1x1'] }],
      },
      settings: {
        WEATHER_API_KEY: { description: 'API key', secret: true },
        WEATHER_UNITS: { description: 'metric or imperial', required: false, default: 'metric' },
      },
      tools: [{ name: 'forecast', description: 'The forecast' }],
      prompts: [{ name: 'plan', description: 'Plan a trip', arguments: [{ name: 'city' }] }],
      packageJson: { author: 'Ada <ada@example.com> (https://ada.example)' },
      entryPoint: 'server/server.bundle.cjs',
    });
    expect(manifest).toMatchObject({
      manifest_version: '0.3',
      name: 'weather',
      display_name: 'Weather',
      author: { name: 'Ada', email: 'ada@example.com', url: 'https://ada.example' },
      icon: 'icons/icon-0.png',
      icons: [{ src: 'icons/icon-0.png', size: '1x1' }],
      server: {
        type: 'node',
        entry_point: 'server/server.bundle.cjs',
        mcp_config: {
          command: 'node',
          args: ['${__dirname}/server/server.bundle.cjs'],
          env: {
            WEATHER_API_KEY: '${user_config.WEATHER_API_KEY}',
            WEATHER_UNITS: '${user_config.WEATHER_UNITS}',
          },
        },
      },
      tools: [{ name: 'forecast', description: 'The forecast' }],
      prompts: [
        { name: 'plan', description: 'Plan a trip', arguments: ['city'], text: 'Plan a trip' },
      ],
      user_config: {
        WEATHER_API_KEY: {
          type: 'string',
          title: 'WEATHER_API_KEY',
          description: 'API key',
          required: true,
          sensitive: true,
        },
        WEATHER_UNITS: {
          type: 'string',
          title: 'WEATHER_UNITS',
          description: 'metric or imperial',
          required: false,
          default: 'metric',
        },
      },
    });
    expect(Buffer.from(files['icons/icon-0.png']!).toString('base64')).toBe(PNG_1X1);
  });

  it('a package.json without author is refused, naming the line to add', () => {
    expect(() =>
      mcpbManifest({
        serverInfo: { name: 's', version: '1.0.0', description: 'd' },
        settings: {},
        tools: [],
        prompts: [],
        packageJson: {},
        entryPoint: 'server/s.cjs',
      }),
    ).toThrow(/no author/);
  });
});

describe('mcp-fw build --mcpb', () => {
  it('--mcpb with --external is refused before compiling: a bundle holds no node_modules', async () => {
    const project = exampleProject('calculator');
    cleanup(() => project.remove());
    const run = await runCli(['build', '--mcpb', '--external', 'zod'], project.dir, cliEnv());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--mcpb with --external zod');
    expect(run.stderr).toContain('Drop --external');
    expect(existsSync(project.path('dist'))).toBe(false);
  });

  it('mcp-fw build --mcpb in examples/calculator writes a bundle; mcpb validate passes on it, and a client runs the unpacked bundle end to end', async () => {
    const project = exampleProject('calculator');
    cleanup(() => project.remove());
    // The example plus one declared setting, whose value the server reports in its instructions.
    project.write(
      'src/server.ts',
      project
        .read('src/server.ts')
        .replace(
          "instructions: 'Arithmetic on two numbers. Every tool returns { result, expression }.',",
          'instructions: `Label: ${process.env.CALC_LABEL}`,\n  settings: { CALC_LABEL: { description: "A label shown in the instructions", required: false, default: "plain" } },',
        ),
    );
    expect(project.read('src/server.ts')).toContain('CALC_LABEL');

    const build = await runCli(['build', '--mcpb'], project.dir, cliEnv());
    expect(build.stderr).toContain('Packed calculator-0.1.0.mcpb');
    expect(build.code).toBe(0);
    const bundle = project.path('calculator-0.1.0.mcpb');

    const info = mcpb(['info', bundle], project.dir);
    expect(info.status).toBe(0);
    expect(info.stdout).toContain('calculator-0.1.0.mcpb');

    const unpacked = project.path('unpacked');
    const unpack = mcpb(['unpack', bundle, unpacked], project.dir);
    expect(unpack.stdout).toContain('unpacked successfully');
    const validate = mcpb(['validate', join(unpacked, 'manifest.json')], project.dir);
    expect(validate.stdout).toContain('Manifest schema validation passes');
    expect(validate.status).toBe(0);

    // The lazy file (yaml, Ajv, ...) beside the bundle that requires it, with the source maps.
    const shipped = readdirSync(join(unpacked, 'server'), { recursive: true }).map(String).sort();
    expect(shipped).toEqual(expect.arrayContaining(['server.bundle.cjs', 'server.bundle.cjs.map']));
    expect(shipped).toEqual(
      expect.arrayContaining([
        'server.lazy/ajv.cjs',
        'server.lazy/ajv.cjs.map',
        'server.lazy/yaml.cjs',
      ]),
    );
    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8'));
    expect(manifest.tools.map((t: { name: string }) => t.name)).toEqual([
      'add',
      'subtract',
      'multiply',
      'divide',
    ]);
    expect(manifest.user_config.CALC_LABEL).toMatchObject({ required: false, default: 'plain' });

    // Started as a host would: mcp_config with ${__dirname} and ${user_config.*} substituted,
    // from a directory that has no node_modules.
    const config = manifest.server.mcp_config as {
      command: string;
      args: string[];
      env: Record<string, string>;
    };
    const userConfig = { CALC_LABEL: 'from-the-host' };
    const command = config.command === 'node' ? process.execPath : config.command;
    const transport = new StdioClientTransport({
      command,
      args: config.args.map((arg) => substitute(arg, unpacked, userConfig)),
      env: Object.fromEntries(
        Object.entries(config.env).map(([k, v]) => [k, substitute(v, unpacked, userConfig)]),
      ),
      cwd: '/',
      stderr: 'pipe',
    });
    const client = new Client({ name: 'mcpb-host-test', version: '1.0.0' });
    await client.connect(transport);
    cleanup(() => client.close());
    expect(client.getInstructions()).toBe('Label: from-the-host');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('add');
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(result.structuredContent).toEqual({ result: 5, expression: '2 + 3' });
  }, 60_000);
});
