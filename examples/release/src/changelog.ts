/** The unreleased part of the changelog, bundled so the example runs offline. */
export const CHANGELOG = [
  '## Unreleased',
  '',
  '- feat: `publish --dry-run` prints the plan without uploading',
  '- feat: releases are signed with the project key',
  '- fix: tags of pre-releases no longer sort after the final release',
  '- perf: builds reuse the dependency cache (about 40% faster)',
].join('\n');
