import { join, relative } from 'node:path';
import { runScript, type PackageManager } from './package-manager.js';
import type { Plan } from './plan.js';
import { frameworkPackages, listed } from './project-packages.js';
import { HTTP_PORT } from './scaffold.js';
import { PRESETS, type Idp } from './idp-presets.js';

/** The Claude Desktop `claude_desktop_config.json` entry that connects to the new server. */
export function claudeDesktopConfig(plan: Plan): string {
  const server =
    plan.transport === 'stdio'
      ? { command: 'node', args: [join(plan.dir, 'dist', 'server.launch.cjs')] }
      : // Claude Desktop launches commands; mcp-remote bridges its stdio to the HTTP endpoint.
        { command: 'npx', args: ['-y', 'mcp-remote', `http://127.0.0.1:${HTTP_PORT}/mcp`] };
  return JSON.stringify({ mcpServers: { [plan.packageName]: server } }, null, 2);
}

/** What to type next, and how to connect Claude Desktop. */
export function nextSteps(plan: Plan, pm: PackageManager, cwd: string, installed: boolean): string {
  const run = (script: string) => runScript(pm, script);
  const commands: [string, string][] = [];
  const where = relative(cwd, plan.dir);
  if (where !== '') commands.push([`cd ${/\s/.test(where) ? JSON.stringify(where) : where}`, '']);
  if (!installed) commands.push([`${pm} install`, 'install the dependencies']);
  const oauth = plan.auth === 'oauth';
  const own = oauth && plan.idp !== 'external';
  commands.push(
    oauth
      ? [
          run('dev'),
          own
            ? 'serve it from src/, restarting on every change, signing people in at a development identity provider'
            : 'serve it from src/, restarting on every change, beside a local authorization server',
        ]
      : [run('dev'), 'serve it from src/, restarting on every change'],
    [run('test'), 'run its tests'],
    [run('inspect'), 'list its tools, resources and prompts'],
    [run('build'), oauth ? 'compile it into dist/' : 'compile and bundle it into dist/'],
  );
  const width = Math.max(...commands.map(([command]) => command.length));
  const lines = commands.map(
    ([command, what]) => `  ${what ? `${command.padEnd(width)}   # ${what}` : command}`,
  );
  const connect = oauth
    ? `To use it from Claude Desktop, start it (${run('dev')}: http://127.0.0.1:${HTTP_PORT}/mcp), then add this to\nclaude_desktop_config.json (Settings → Developer → Edit Config) and restart Claude Desktop; mcp-remote\nopens the sign-in page in the browser:`
    : plan.transport === 'stdio'
      ? `To use it from Claude Desktop, build it (${run('build')}), then add this to claude_desktop_config.json\n(Settings → Developer → Edit Config) and restart Claude Desktop:`
      : `To use it from Claude Desktop, start it (${run('build')} && ${run('start')}: http://127.0.0.1:${HTTP_PORT}/mcp), then add this\nto claude_desktop_config.json (Settings → Developer → Edit Config) and restart Claude Desktop:`;
  const vendored =
    plan.packages === 'registry'
      ? []
      : [
          '',
          `It depends on ${listed(Object.keys(frameworkPackages(plan)))} by file: from its vendor/ folder: keep that folder with the project.`,
        ];
  return [
    'Next steps:',
    '',
    ...lines,
    '',
    ...(own ? [...ownServerSteps(plan, run), ''] : oauth ? [...oauthSteps(run), ''] : []),
    connect,
    '',
    claudeDesktopConfig(plan),
    ...vendored,
    '',
  ].join('\n');
}

/** How to try the variant that is its own authorization server, and what to register at the identity provider. */
function ownServerSteps(plan: Plan, run: (script: string) => string): string[] {
  const preset = PRESETS[plan.idp as Exclude<Idp, 'external'>];
  return [
    `It is its own OAuth 2.1 authorization server; people sign in at ${preset.label}. ${run('dev')} signs them in at a`,
    'development identity provider instead (any login, any password); with it running,',
    `  npx mcp-fw auth doctor http://127.0.0.1:${HTTP_PORT}/mcp`,
    'checks the metadata, the authorization server, the identity provider and its callback.',
    `In production, register <your origin>/oauth/callback at ${preset.label} and set the variables of .env.example`,
    '(README.md says exactly what to create there), then start it.',
  ];
}

/** How to try the OAuth variant, and what it needs in production. */
function oauthSteps(run: (script: string) => string): string[] {
  const url = `http://127.0.0.1:${HTTP_PORT}/mcp`;
  return [
    `It is an OAuth 2.1 protected resource: requests without a valid bearer token get 401. ${run('dev')} starts a`,
    'development authorization server beside it that approves every sign-in as "dev"; with it running,',
    `  npx mcp-fw auth doctor ${url}`,
    'checks what a client discovers (the metadata, the authorization server, the 401 challenge).',
    'In production, set OAUTH_ISSUER, OAUTH_JWKS_URL and MCP_RESOURCE_URL (see README.md), then start it.',
  ];
}
