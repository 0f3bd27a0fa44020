import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { CliError } from '../output/cli-error.js';
import { builtFile } from '../project/built-file.js';
import type { Project } from '../project/project.js';

/**
 * The module `mcp-fw build --bundle` starts from: `--entry` (a source file stands for its build
 * output), else the package's `bin` or `main`, else `server.js`, `main.js` or `index.js` in the
 * build output directory.
 */
export async function bundleEntry(
  project: Project,
  outDir: string | undefined,
  entry: string | undefined,
): Promise<string> {
  if (entry !== undefined) {
    const file = resolve(process.cwd(), entry);
    if (!existsSync(file))
      throw new CliError(
        `--entry ${entry} does not exist.`,
        'Pass the built module that exports your server, e.g. --entry dist/server.js.',
      );
    return builtFile(file);
  }
  const candidates = [
    ...packageEntries(project),
    ...['server.js', 'main.js', 'index.js'].map((name) => outDir && join(outDir, name)),
  ];
  const found = candidates.find((file): file is string => file !== undefined && existsSync(file));
  if (found) return found;
  const looked = candidates
    .filter((file): file is string => file !== undefined)
    .map((file) => relative(process.cwd(), file));
  throw new CliError(
    `mcp-fw build --bundle found no entry to bundle (looked for ${looked.join(', ') || 'a package.json bin or main, and an outDir'}).`,
    'Pass the built module that exports your server: mcp-fw build --bundle --entry dist/server.js.',
  );
}

function packageEntries(project: Project): string[] {
  const pkg = project.packageJson;
  if (!pkg) return [];
  const dir = resolve(pkg.path, '..');
  const { bin, main } = pkg.data as { bin?: unknown; main?: unknown };
  const bins =
    typeof bin === 'string' ? [bin] : bin && typeof bin === 'object' ? Object.values(bin) : [];
  return [...bins, main]
    .filter((file): file is string => typeof file === 'string' && /\.[cm]?js$/.test(file))
    .map((file) => resolve(dir, file));
}
