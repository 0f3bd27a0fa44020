import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (the directory holding the root package.json). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** `shared/` sits beside the clone (developer machines and CI alike). */
export const SHARED = [resolve(REPO_ROOT, '../shared'), resolve(REPO_ROOT, 'shared')].find((p) =>
  existsSync(join(p, 'mcp-schema')),
) as string;

if (!SHARED) throw new Error(`shared/mcp-schema not found beside ${REPO_ROOT}`);
