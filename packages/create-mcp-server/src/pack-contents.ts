// `prepack` / `postpack`: npm packs nothing outside the package folder, so the root templates/
// (their single source) are copied in before packing and removed after. A tarball made with
// `npm pack` (not `npm publish`) also carries the framework packages packed from this
// repository in vendor/, so that what it scaffolds installs without them being published.
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  FRAMEWORK_PACKAGES,
  OPTIONAL_FRAMEWORK_PACKAGES,
  PACKED_VENDOR_DIR,
  packFramework,
} from './framework-packages.js';
import { PACKAGE_DIR, REPO_ROOT, REPO_TEMPLATES_DIR } from './templates.js';
import { templateFiles } from './template-files.js';

const packed = join(PACKAGE_DIR, 'templates');
const command = process.argv[2];

if (command === 'copy') {
  if (!existsSync(REPO_TEMPLATES_DIR)) {
    process.stderr.write(
      `pack-contents: ${REPO_TEMPLATES_DIR} not found; pack from the mcp-fw repository\n`,
    );
    process.exit(1);
  }
  rmSync(packed, { recursive: true, force: true });
  for (const file of templateFiles(REPO_TEMPLATES_DIR)) {
    mkdirSync(dirname(join(packed, file)), { recursive: true });
    cpSync(join(REPO_TEMPLATES_DIR, file), join(packed, file));
  }
  rmSync(PACKED_VENDOR_DIR, { recursive: true, force: true });
  // npm names the command it runs the lifecycle scripts for; a published scaffolder depends on
  // the published packages instead.
  if (process.env.npm_command === 'pack') {
    const result = await packFramework(REPO_ROOT, PACKED_VENDOR_DIR, process.env, {
      ...FRAMEWORK_PACKAGES,
      ...OPTIONAL_FRAMEWORK_PACKAGES,
    });
    if (!result.ok) {
      process.stderr.write(
        `pack-contents: ${result.reason}\n${result.output}${result.fix ?? ''}\n`,
      );
      process.exit(1);
    }
  }
} else if (command === 'clean') {
  rmSync(packed, { recursive: true, force: true });
  rmSync(PACKED_VENDOR_DIR, { recursive: true, force: true });
} else {
  process.stderr.write('usage: node dist/pack-contents.js copy|clean\n');
  process.exit(1);
}
