import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { CliError } from '../output/cli-error.js';
import { runToExit } from '../output/report-error.js';
import { takeStdout } from '../output/stdout.js';
import { loadEntry } from '../project/load-entry.js';
import { examples } from './options.js';
import { compareSurfaces } from './surface-diff.js';
import { snapshotSurface, type SurfaceLock } from './surface-lock.js';

const LOCK = 'mcp-surface.lock.json';

const counts = (lock: SurfaceLock) =>
  Object.entries(lock.eras)
    .map(
      ([era, s]) =>
        `  ${era}: ${Object.keys(s.tools).length} tools, ${Object.keys(s.prompts).length} prompts, ${Object.keys(s.resources).length + Object.keys(s.resourceTemplates).length} resources`,
    )
    .join('\n');

/** `mcp-fw surface snapshot|check [entry]`: record the surface clients see, and guard it. */
export function surfaceCommand(program: Command): void {
  const surface = program
    .command('surface')
    .description(
      'Record the tools, resources and prompts a server serves (per protocol revision) in a lock file, and check changes against it',
    );
  surface
    .command('snapshot')
    .description(`Write the server's surface, with schemas, per revision, to ${LOCK}`)
    .argument('[entry]', 'the module that exports your server (default: src/server.ts)')
    .option('--lock <file>', 'the lock file to write', LOCK)
    .addHelpText(
      'after',
      examples([
        ['mcp-fw surface snapshot', `records the project here in ${LOCK}; commit it`],
        ['mcp-fw surface snapshot dist/server.js --lock api.lock.json', 'a built entry'],
      ]),
    )
    .action((entry: string | undefined, options: { lock: string }) =>
      runToExit(async () => {
        const out = takeStdout();
        const lock = await snapshotSurface(await loadEntry(entry, 'surface snapshot'));
        writeFileSync(resolve(options.lock), `${JSON.stringify(lock, null, 2)}\n`);
        out(`wrote ${options.lock}\n${counts(lock)}\n  fingerprint: ${lock.fingerprint}\n`);
        return 0;
      }),
    );
  surface
    .command('check')
    .description(
      `Compare the server with ${LOCK}: exit 1 on a breaking change (removed member, new required argument, narrowed type, changed output schema), naming each`,
    )
    .argument('[entry]', 'the module that exports your server (default: src/server.ts)')
    .option('--lock <file>', 'the lock file to compare with', LOCK)
    .addHelpText(
      'after',
      `${examples([
        ['mcp-fw surface check', `in CI: fails when a change would break clients of ${LOCK}`],
      ])}\nAdditive changes (new members, new optional arguments) pass; run mcp-fw surface snapshot to record them.\n`,
    )
    .action((entry: string | undefined, options: { lock: string }) =>
      runToExit(async () => {
        const out = takeStdout();
        const path = resolve(options.lock);
        if (!existsSync(path))
          throw new CliError(
            `no lock file at ${options.lock}.`,
            'Record the surface first: mcp-fw surface snapshot (and commit the file), or point --lock at it.',
          );
        let before: SurfaceLock;
        try {
          before = JSON.parse(readFileSync(path, 'utf8')) as SurfaceLock;
        } catch (error) {
          throw new CliError(
            `${options.lock} is not valid JSON (${(error as Error).message}).`,
            'Regenerate it with mcp-fw surface snapshot.',
          );
        }
        if (before?.lockVersion !== 1 || typeof before.eras !== 'object')
          throw new CliError(
            `${options.lock} is not an mcp-fw surface lock (lockVersion 1).`,
            'Regenerate it with mcp-fw surface snapshot.',
          );
        const after = await snapshotSurface(await loadEntry(entry, 'surface check'));
        const changes = compareSurfaces(before, after);
        const breaking = changes.filter((c) => c.breaking);
        const additive = changes.filter((c) => !c.breaking);
        if (breaking.length > 0) {
          process.stderr.write(
            `mcp-fw: ${breaking.length} breaking change${breaking.length === 1 ? '' : 's'} against ${options.lock}:\n${breaking.map((c) => `  ${c.message}`).join('\n')}\n` +
              'Fix: restore what clients rely on (or serve the new shape beside the old under a new name); if the break is intended, run mcp-fw surface snapshot and commit the lock with a note for your clients.\n',
          );
          return 1;
        }
        const fingerprint =
          before.fingerprint === after.fingerprint
            ? `fingerprint unchanged: ${after.fingerprint}\n`
            : `fingerprint: ${after.fingerprint} (the lock has ${before.fingerprint ?? 'none'})\n`;
        out(
          (additive.length > 0
            ? `no breaking changes; ${additive.length} additive:\n${additive.map((c) => `  ${c.message}`).join('\n')}\nRun mcp-fw surface snapshot to record them.\n`
            : `no changes against ${options.lock}\n`) + fingerprint,
        );
        return 0;
      }),
    );
}
