// Who takes part in the cold-start phase: each selected server as tsc emits it, the bare floor
// with zod imported (what any zod-based server pays before its own code runs), and mcp-fw and the
// SDK bundled as `mcp-fw build --bundle` bundles a project.
import { bundledServers, snapshotBlob } from './bundled-servers.js';
import type { ColdStartSubject } from './cold-start.js';
import type { ServerName } from './report.js';

const BARE_WITH_ZOD = 'bare+zod';
const SNAPSHOT = 'mcp-fw (snapshot)';
export const bundledName = (name: ServerName) => `${name} (bundled)`;

export async function coldStartSubjects(
  selected: readonly ServerName[],
  scripts: Record<ServerName, string>,
): Promise<Record<string, ColdStartSubject>> {
  const subjects: Record<string, ColdStartSubject> = {};
  for (const name of selected) subjects[name] = { script: scripts[name] };
  subjects[BARE_WITH_ZOD] = {
    script: scripts.bare,
    options: { nodeArgs: ['--import', import.meta.resolve('zod')] },
  };
  // fastmcp does not bundle: xsschema, beneath it, imports optional schema libraries (effect, sury,
  // valibot) that are not installed, and esbuild refuses the unresolved imports. It runs as installed.
  const frameworks = selected.filter((name) => name === 'mcp-fw' || name === 'sdk-v2');
  const launchers = await bundledServers(frameworks);
  for (const name of frameworks) subjects[bundledName(name)] = { script: launchers[name] };
  // BENCH_SNAPSHOT=1: also the mcp-fw server started from a V8 startup snapshot (an experiment:
  // `node --snapshot-blob` is a flag its user would have to pass).
  if (process.env.BENCH_SNAPSHOT === '1' && selected.includes('mcp-fw' as ServerName)) {
    const blob = await snapshotBlob();
    if (blob) subjects[SNAPSHOT] = { script: blob, options: { nodeArgs: ['--snapshot-blob'] } };
  }
  return subjects;
}
