// The benchmark's stdio servers bundled as `mcp-fw build --bundle` bundles a project: one
// CommonJS file each, started by a launcher through a V8 code cache. The SDK's server gets the
// same treatment, so the bundled rows compare like with like.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleServer } from '@mcp-fw/cli/bundle';
import { serverRuntime } from './config.js';

/** Bundles `bench/dist/<name>-server.js` for each server; returns the launchers, by server. */
export async function bundledServers<K extends string>(
  names: readonly K[],
): Promise<Record<K, string>> {
  const outDir = fileURLToPath(new URL('./bundled/', import.meta.url));
  // A fresh directory: the first spawn of each then writes its code cache, as after a deploy.
  rmSync(outDir, { recursive: true, force: true });
  const launchers = {} as Record<K, string>;
  for (const name of names) {
    const entry = fileURLToPath(new URL(`./${name}-server.js`, import.meta.url));
    launchers[name] = (await bundleServer({ entry, outDir, name: `${name}-server` })).launcherFile;
  }
  return launchers;
}

/**
 * An experiment of issue 40: the mcp-fw bench server as a V8 startup snapshot
 * (`src/snapshot-server.ts`, bundled as above, then `node --build-snapshot`), started with
 * `node --snapshot-blob <blob>`: the server's modules are loaded and the server built in the
 * blob, so a start deserializes a heap instead. Undefined (and why, on stderr) when this node
 * cannot build it.
 */
export async function snapshotBlob(): Promise<string | undefined> {
  const outDir = fileURLToPath(new URL('./bundled/', import.meta.url));
  const entry = fileURLToPath(new URL('./snapshot-server.js', import.meta.url));
  // One file: a snapshot's entry cannot require the lazy file at run time.
  const { bundleFile } = await bundleServer({
    entry,
    outDir,
    name: 'mcp-fw-snapshot',
    singleFile: true,
  });
  const blob = join(outDir, 'mcp-fw-server.snapshot.blob');
  const built = spawnSync(
    serverRuntime,
    ['--snapshot-blob', blob, '--build-snapshot', bundleFile],
    {
      encoding: 'utf8',
    },
  );
  if (built.status === 0) return blob;
  process.stderr.write(`no snapshot subject: node --build-snapshot failed\n${built.stderr}\n`);
  return undefined;
}
