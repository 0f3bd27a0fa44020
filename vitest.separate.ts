// Test files `npm test` leaves to a CI step of their own (`npm run test:separate`, run by
// .ci/run), like the Node 22/24 matrix and the documentation site's browser test: each drives a
// real component for minutes of CPU (the official conformance suite, `npm pack` and `npm install`
// of every template, values nested 60,000 deep through every field), which on a 2-core machine
// would double npm test's time. Every project keeps its other tests in npm test
// (vitest.config.ts refuses a list that would empty one).
export default [
  'examples/conformance/test/conformance-suite.test.ts',
  // The official conformance suite against the fixture on Bun and on Deno: two suite runs each.
  'examples/conformance/test/runtimes-conformance.test.ts',
  // The official conformance suite against the fixture as a Cloudflare Worker in workerd: two suite runs.
  'examples/conformance/test/workers-conformance.test.ts',
  // The official conformance suite against the fixture as a serverless function on a local
  // serverless platform (instances recycled every few requests, Redis): dozens of cold starts.
  'examples/conformance/test/serverless-conformance.test.ts',
  // The three Skills scenarios at both wires: six suite processes, about a minute on 2 cores.
  'examples/conformance/test/skills-suite.test.ts',
  'examples/conformance/test/deep-nesting.test.ts',
  'packages/redis/test/conformance-cluster.test.ts',
  // serverlessHandler with a fresh node process per request: about 13 process starts.
  'packages/redis/test/serverless.test.ts',
  'packages/create-mcp-server/test/packed.test.ts',
  'packages/create-mcp-server/test/packed-oauth.test.ts',
  // Third-party servers from npm behind mcp-fw proxy: each client session starts two of them.
  'packages/cli/test/proxy-real-peers.test.ts',
  // The official conformance suite run through the proxy, in both bridging directions.
  'packages/proxy/test/conformance-through-proxy.test.ts',
  // The official conformance suite's client auth scenarios against @mcp-fw/client.
  'packages/client/test/auth-conformance.test.ts',
  // The official conformance suite's authorization mode against our own authorization server.
  'packages/auth/test/authorization-conformance.test.ts',
  // An interactive sign-in in Chromium (oidc-provider's login and consent pages).
  'packages/client/test/chromium-sign-in.test.ts',
  // A sign-in through our own authorization server in Chromium (the IdP's login, our consent page).
  'packages/auth/test/chromium-own-authorization-server.test.ts',
  // mcp-fw build --target workers: two builds, each bundle served in workerd to both clients.
  'packages/cli/test/build-workers-workerd.test.ts',
  // The MCP Apps preview host driven in Chromium (the view bundle built by Vite first).
  'packages/cli/test/dev-preview.test.ts',
  // GitHub's REST description (13 MB, 1,223 operations) through fromOpenAPI: ~25 s of CPU.
  'packages/openapi/test/github.test.ts',
];
