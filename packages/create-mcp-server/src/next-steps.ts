import { join, relative } from 'node:path';
import { runScript, type PackageManager } from './package-manager.js';
import type { Plan } from './plan.js';
import { HTTP_PORT } from './scaffold.js';

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
  commands.push(
    [run('dev'), 'serve it from src/, restarting on every change'],
    [run('test'), 'run its tests'],
    [run('inspect'), 'list its tools, resources and prompts'],
    [run('build'), 'compile and bundle it into dist/'],
  );
  const width = Math.max(...commands.map(([command]) => command.length));
  const lines = commands.map(([command, what]) => `  ${what ? `${command.padEnd(width)}   # ${what}` : command}`);
  const connect =
    plan.transport === 'stdio'
      ? `To use it from Claude Desktop, build it (${run('build')}), then add this to claude_desktop_config.json\n(Settings → Developer → Edit Config) and restart Claude Desktop:`
      : `To use it from Claude Desktop, start it (${run('build')} && ${run('start')}: http://127.0.0.1:${HTTP_PORT}/mcp), then add this\nto claude_desktop_config.json (Settings → Developer → Edit Config) and restart Claude Desktop:`;
  const vendored =
    plan.packages === 'registry'
      ? []
      : ['', 'It depends on the @mcp-fw packages by file: from its vendor/ folder: keep that folder with the project.'];
  return ['Next steps:', '', ...lines, '', connect, '', claudeDesktopConfig(plan), ...vendored, ''].join('\n');
}
