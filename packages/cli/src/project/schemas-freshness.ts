import { dirname, relative, resolve } from 'node:path';
import { devSchemas, usesTypeSchemas } from '../dev/schemas.js';
import { CliError } from '../output/cli-error.js';
import type { Project } from './project.js';

const REGENERATE = 'npx mcp-fw-schemas';

/**
 * Before `mcp-fw inspect` or `call` runs a project's sources: its `schemas.gen.ts` is compared
 * with the sources it was generated from (the hashes `mcp-fw-schemas` writes into it) and
 * regenerated when one changed, so a renamed parameter is never served under its old name.
 * A project that declares its schemas (zod …) gets them checked against the handlers' types
 * instead, in words. `note` prints to stderr.
 */
export async function freshSchemas(
  project: Project,
  command: 'inspect' | 'call',
  note: (line: string) => void,
  entry?: string,
): Promise<void> {
  if (!project.tsconfig) return;
  if (!usesTypeSchemas(project)) {
    // inspect only lists: the handlers' types matter to a call, and inspect stays quick.
    if (command === 'inspect') return;
    const check = await devSchemas(project, note, entry);
    const result = await check?.regenerate();
    if (result && !result.ok)
      throw new CliError(result.error, `Fix it and run mcp-fw ${command} again.`);
    return;
  }
  // A fresh module costs a few file hashes, not the compiler.
  const light = await lightEntry();
  if (!light) return void (await devSchemas(project, note)); // says why it cannot regenerate
  const freshness = light.schemasFreshness(light.defaultOut(project.tsconfig));
  if (freshness.state === 'fresh') return;
  const schemas = await devSchemas(project, note);
  if (!schemas?.target) return;
  const shown = relative(process.cwd(), schemas.target) || schemas.target;
  const why = reason(freshness, shown, schemas.target);
  const result = await schemas.regenerate();
  if (!result.ok) {
    throw new CliError(
      `${why}, and it cannot be regenerated: ${result.error}`,
      `Fix it, then run mcp-fw ${command} again (or ${REGENERATE}; mcp-fw dev regenerates it on save).`,
    );
  }
  note(`${why}: regenerated it.`);
}

/**
 * Before `mcp-fw start` serves a build: says (on stderr, in every transport) when the sources'
 * `schemas.gen.ts` is stale, since the build then serves the schemas of older signatures.
 * Production installs without `@mcp-fw/typescript` or without sources are not checked.
 */
export async function warnStaleSchemas(
  project: Project,
  note: (line: string) => void,
): Promise<void> {
  if (!project.tsconfig || !usesTypeSchemas(project)) return;
  const light = await lightEntry();
  if (!light) return;
  const target = light.defaultOut(project.tsconfig);
  const freshness = light.schemasFreshness(target);
  if (freshness.state === 'fresh' || freshness.state === 'missing') return;
  const shown = relative(process.cwd(), target) || target;
  note(
    `warning: ${reason(freshness, shown, target)}, so this build may serve the schemas of older signatures. ` +
      `Fix: run ${REGENERATE}, then mcp-fw build.`,
  );
}

/** `@mcp-fw/typescript/freshness` (no compiler), or undefined where it is not installed. */
async function lightEntry(): Promise<typeof import('@mcp-fw/typescript/freshness') | undefined> {
  try {
    return await import('@mcp-fw/typescript/freshness');
  } catch {
    return undefined;
  }
}

function reason(
  freshness: { state: 'stale'; changed: readonly string[] } | { state: 'missing' | 'unstamped' },
  shown: string,
  target: string,
): string {
  if (freshness.state === 'stale') {
    // The stamp names sources relative to the module; the message, relative to here.
    const files = freshness.changed.map((f) =>
      relative(process.cwd(), resolve(dirname(target), f)),
    );
    return `${shown} is out of date (${files.join(', ')} changed since it was generated)`;
  }
  if (freshness.state === 'missing') return `${shown} is missing`;
  return `${shown} has no source stamp (an older mcp-fw-schemas wrote it), so it may be out of date`;
}
