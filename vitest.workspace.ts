// The single list of test projects. vitest 4 ignores this file on its own (toolchain.md §5),
// so vitest.config.ts imports it and turns each entry into an inline project.
export default ['packages/core', 'packages/auth', 'packages/cli', 'packages/typescript', 'examples/calculator', 'examples/logistics', 'examples/conformance', 'examples/files', 'examples/weather', 'examples/prompts', 'examples/release', 'examples/secure-notes', 'packages/create-mcp-server', 'templates/basic', 'templates/http', 'templates/http-oauth', 'templates/full'];
