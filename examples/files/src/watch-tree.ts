import { watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResourceControl } from '@mcp-fw/core';
import { signatureOf, uriOf, type FileTree } from './file-tree.js';

// Bursts of events (an editor's save, a `git checkout`) are coalesced into one rescan.
const RESCAN_DELAY_MS = 25;

/**
 * Watches the served directory and tells clients about it: `resources.updated(uri)` when a
 * file's contents change (only sessions subscribed to that URI hear of it), and
 * `resources.changed()` when files appear or go. Returns a function that stops watching.
 *
 * Each walked directory gets its own watcher rather than one `recursive` watch: Node 20's
 * recursive mode on Linux watches every file's inode, so after an editor saves by renaming a
 * new file into place it reports nothing more for that file. A directory watch reports changes
 * to whatever file currently has the name.
 */
export async function watchTree(tree: FileTree, resources: ResourceControl): Promise<() => void> {
  const watchers = new Map<string, FSWatcher>();
  const first = await tree.scan();
  let known = new Map(first.files.map((f) => [f.path, f]));
  let timer: NodeJS.Timeout | undefined;
  let scans = Promise.resolve();

  const rescan = async () => {
    const scan = await tree.scan();
    const now = new Map(scan.files.map((f) => [f.path, f]));
    const listChanged = now.size !== known.size || [...now.keys()].some((p) => !known.has(p));
    for (const [path, file] of now) {
      const before = known.get(path);
      // A changed signature here means the file was replaced (e.g. an atomic save by rename).
      if (before && before.signature !== file.signature) resources.updated(uriOf(path));
    }
    known = now;
    watchDirectories(scan.directories);
    if (listChanged) resources.changed();
  };
  const scheduleRescan = () => {
    clearTimeout(timer);
    // Scans run one after another, so each compares against the one before.
    timer = setTimeout(() => (scans = scans.then(rescan).catch(report)), RESCAN_DELAY_MS);
  };
  const contentsChanged = async (path: string) => {
    const before = known.get(path);
    const info = await stat(join(tree.root, path)).catch(() => undefined);
    if (!before || !info?.isFile()) return scheduleRescan();
    // Always announced: timestamps are too coarse to tell two quick same-size writes apart.
    known.set(path, { path, size: info.size, signature: signatureOf(info) });
    resources.updated(uriOf(path));
  };
  const watchDirectories = (directories: readonly string[]) => {
    const wanted = new Set(directories);
    for (const [dir, watcher] of watchers) {
      if (!wanted.has(dir)) {
        watcher.close();
        watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (watchers.has(dir)) continue;
      try {
        const watcher = watch(join(tree.root, dir), (event, name) => {
          const path = name ? (dir ? `${dir}/${name}` : name) : undefined;
          if (event === 'change' && path) void contentsChanged(path).catch(report);
          else scheduleRescan();
        });
        watcher.on('error', () => {
          watcher.close();
          watchers.delete(dir);
          scheduleRescan();
        });
        watchers.set(dir, watcher);
      } catch {
        // The directory went away after the walk; the rescan its removal triggers settles it.
      }
    }
  };

  watchDirectories(first.directories);
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
}

function report(error: unknown): void {
  // stdout carries protocol frames only; diagnostics go to stderr.
  process.stderr.write(
    `files: watching failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
}
