/** The package managers `npm create`, `pnpm create`, `yarn create` and `bun create` run us with. */
export type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

/**
 * The package manager that launched us, from `npm_config_user_agent` (e.g.
 * `pnpm/9.12.0 npm/? node/v20.19.0 linux x64`); npm when there is none.
 */
export function detectPackageManager(userAgent: string | undefined): PackageManager {
  const name = userAgent?.split(' ')[0]?.split('/')[0];
  return name === 'pnpm' || name === 'yarn' || name === 'bun' ? name : 'npm';
}

/** The command that installs a project's dependencies. */
export function installCommand(pm: PackageManager): string[] {
  return pm === 'yarn' ? ['yarn'] : [pm, 'install'];
}

/** The command that runs a package.json script, spelled the way each package manager's users type it. */
export function runScript(pm: PackageManager, script: string): string {
  // `bun test` would run bun's own test runner, not the script.
  if (pm === 'npm')
    return script === 'test' || script === 'start' ? `npm ${script}` : `npm run ${script}`;
  return pm === 'bun' ? `bun run ${script}` : `${pm} ${script}`;
}
