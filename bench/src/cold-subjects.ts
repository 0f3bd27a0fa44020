// Who takes part in the cold-start phase: each selected server as tsc emits it, the bare floor
// with zod imported (what any zod-based server pays before its own code runs), and mcp-fw and the
// SDK bundled as `mcp-fw build --bundle` bundles a project.
import { bundledServers, snapshotBlob } from './bundled-servers.js';
import type { ColdStartSubject } from './cold-start.js';
import type { ServerName } from './report.js';

const BARE_WITH_ZOD = 'bare+zod';
const SNAPSHOT = 'mcp-fw (snapshot)';
export const bundledName = (name: ServerName) => `${name} (bundled)`;

// NODE_EXTRA_CA_CERTS makes every node parse that file's certificates at start: on the machine
// of 2026-11-29 (set to the system bundle) 416 M instructions, twice a bare node's start, paid
// by the floor and every server alike. It is the machine's, not node's, and it hid two thirds
// of the gap being measured, so the subjects start without it; BENCH_KEEP_EXTRA_CA_CERTS=1
// keeps it.
export const keepsExtraCaCerts = process.env.BENCH_KEEP_EXTRA_CA_CERTS === '1';

/** The environment cold-start subjects run in: the harness's, without NODE_EXTRA_CA_CERTS. */
export function subjectEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  if (!keepsExtraCaCerts) delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

// SpawnOptions.env is laid over the harness's environment: an empty value is how a variable is
// taken away (node reads an empty NODE_EXTRA_CA_CERTS as none).
const withoutExtraCaCerts = (): Record<string, string> =>
  keepsExtraCaCerts ? {} : { NODE_EXTRA_CA_CERTS: '' };

/**
 * `BENCH_COLD_EXTRA=name=script,…`: more subjects, e.g. a launcher bundled by another checkout,
 * so that a change is timed (run-cold.ts) or counted (cold-icount.ts) before and after in one run.
 */
export function extraSubjects(): [name: string, script: string][] {
  return (process.env.BENCH_COLD_EXTRA?.split(',').filter(Boolean) ?? []).map((extra) => {
    const at = extra.indexOf('=');
    if (at <= 0) throw new Error(`BENCH_COLD_EXTRA: expected name=script, got ${extra}`);
    return [extra.slice(0, at), extra.slice(at + 1)];
  });
}

export async function coldStartSubjects(
  selected: readonly ServerName[],
  scripts: Record<ServerName, string>,
): Promise<Record<string, ColdStartSubject>> {
  const subjects: Record<string, ColdStartSubject> = {};
  const env = withoutExtraCaCerts();
  for (const name of selected) subjects[name] = { script: scripts[name], options: { env } };
  subjects[BARE_WITH_ZOD] = {
    script: scripts.bare,
    options: { env, nodeArgs: ['--import', import.meta.resolve('zod')] },
  };
  // fastmcp does not bundle: xsschema, beneath it, imports optional schema libraries (effect, sury,
  // valibot) that are not installed, and esbuild refuses the unresolved imports. It runs as installed.
  const frameworks = selected.filter((name) => name === 'mcp-fw' || name === 'sdk-v2');
  const launchers = await bundledServers(frameworks);
  for (const name of frameworks)
    subjects[bundledName(name)] = { script: launchers[name], options: { env } };
  for (const [name, script] of extraSubjects()) subjects[name] = { script, options: { env } };
  // BENCH_SNAPSHOT=1: also the mcp-fw server started from a V8 startup snapshot (an experiment:
  // `node --snapshot-blob` is a flag its user would have to pass).
  if (process.env.BENCH_SNAPSHOT === '1' && selected.includes('mcp-fw' as ServerName)) {
    const blob = await snapshotBlob();
    if (blob)
      subjects[SNAPSHOT] = { script: blob, options: { env, nodeArgs: ['--snapshot-blob'] } };
  }
  return subjects;
}
