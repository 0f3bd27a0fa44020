import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
/** The committed bin shim, as npm links it. */
export const BIN = join(REPO_ROOT, 'packages/cli/bin/mcp-fw.js');
/** Fixture projects of these tests. */
export const FIXTURES = join(REPO_ROOT, 'packages/cli/test/fixtures');
/** Records every stdio line both ways (MCP_TAP_FILE), from core's tests. */
export const TAP = join(REPO_ROOT, 'packages/core/test/support/stdio-tap.mjs');
