import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (the directory holding the root package.json). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * The official MCP schemas, one folder per revision, vendored byte for byte
 * (`vendor/mcp-schema/SOURCE.md` names the upstream commit). Tests read nothing outside the
 * repository, so a fresh clone is all they need.
 */
export const MCP_SCHEMA_DIR = join(REPO_ROOT, 'vendor', 'mcp-schema');

/** The vendored schema of the tasks extension (see vendor/ext-tasks/SOURCE.md). */
export const EXT_TASKS_SCHEMA = join(REPO_ROOT, 'vendor/ext-tasks/schema.json');

/** The vendored Server Card schema (see vendor/server-card/SOURCE.md). */
export const SERVER_CARD_SCHEMA = join(REPO_ROOT, 'vendor/server-card/schema.json');
