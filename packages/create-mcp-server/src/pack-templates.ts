// `prepack` / `postpack`: npm packs nothing outside the package folder, so the root templates/
// (their single source) are copied in before packing and removed after.
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PACKAGE_DIR, REPO_TEMPLATES_DIR } from './templates.js';
import { templateFiles } from './template-files.js';

const packed = join(PACKAGE_DIR, 'templates');
const command = process.argv[2];

if (command === 'copy') {
  if (!existsSync(REPO_TEMPLATES_DIR)) {
    process.stderr.write(`pack-templates: ${REPO_TEMPLATES_DIR} not found; pack from the mcp-fw repository\n`);
    process.exit(1);
  }
  rmSync(packed, { recursive: true, force: true });
  for (const file of templateFiles(REPO_TEMPLATES_DIR)) {
    mkdirSync(dirname(join(packed, file)), { recursive: true });
    cpSync(join(REPO_TEMPLATES_DIR, file), join(packed, file));
  }
} else if (command === 'clean') {
  rmSync(packed, { recursive: true, force: true });
} else {
  process.stderr.write('usage: node dist/pack-templates.js copy|clean\n');
  process.exit(1);
}
