// Where the site links outside itself: the repository, each package's README there, the
// changelog. One list, read by the navigation and the tests.

/** The repository (what `git clone` takes, without `.git`). */
export const REPOSITORY = 'https://github.com/mcp-fw/mcp-fw';

/** The changelog, in the repository. */
export const CHANGELOG = `${REPOSITORY}/blob/main/CHANGELOG.md`;

/** The published packages, each with its README in the repository. */
export const PACKAGES: readonly { readonly text: string; readonly link: string }[] = [
  ['@mcp-fw/core', 'packages/core'],
  ['@mcp-fw/cli', 'packages/cli'],
  ['@mcp-fw/typescript', 'packages/typescript'],
  ['@mcp-fw/auth', 'packages/auth'],
  ['@mcp-fw/redis', 'packages/redis'],
  ['@mcp-fw/otel', 'packages/otel'],
  ['create-mcp-server', 'packages/create-mcp-server'],
].map(([text, folder]) => ({ text, link: `${REPOSITORY}/tree/main/${folder}#readme` }));
