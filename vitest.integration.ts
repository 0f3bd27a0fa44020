// Test files `npm test` leaves to `npm run test:integration` (a CI step of its own in .ci/run):
// the process-heavy ones. Each starts real processes per test — the CLI's dev, build, bundle and
// install flows, the scaffolder writing and installing projects, examples driven by the official
// clients over stdio and HTTP, every README's and page's code compiled and run, Redis clusters
// behind HAProxy, our authorization server as a process — and together they were two thirds of
// npm test's CPU (720 of 1,110 CPU-seconds, measured), while npm test keeps every package's unit
// and in-process protocol tests, and a few real-process ones per package: 3-4 minutes on 2 cores.
//
// A new test file that starts several processes per test, or takes more than ~8 s on a quiet
// 2-core machine, goes here; one that drives a real component for minutes of CPU (the official
// conformance suite, `npm pack`, a browser) goes to vitest.separate.ts. vitest.config.ts refuses a
// file on both lists, and lists that would leave a project with no test in npm test.
// `npm run test:all` runs npm test, then these, then vitest.separate.ts's.
export default [
  // core: every README's TypeScript compiled and served; the official clients against fixture
  // processes over stdio and HTTP; fixtures compiled by tsc in each decorator mode.
  'packages/core/test/readme-code.test.ts',
  'packages/core/test/composition-official-clients.test.ts',
  'packages/core/test/official-client-eras.test.ts',
  'packages/core/test/middleware-transports.test.ts',
  'packages/core/test/guardrails-audit.test.ts',
  'packages/core/test/decorator-modes.test.ts',
  'packages/core/test/issue-16-dropped-decorators.test.ts',
  'packages/core/test/views-wire.test.ts',
  'packages/core/test/security-http-cors.test.ts',
  // Node processes that allocate ~200 MB each to watch V8's young generation grow.
  'packages/core/test/young-generation.test.ts',
  // The same server in two processes, with and without Node's variants of core's imports.
  'packages/core/test/runtime-neutral.test.ts',
  // auth: the authorization server as a process; floods of thousands of bad tokens over HTTP.
  'packages/auth/test/authorization-server-attacks.test.ts',
  'packages/auth/test/authorization-server-clients.test.ts',
  'packages/auth/test/authorization-server-options.test.ts',
  'packages/auth/test/issuer-protection.test.ts',
  // redis: clusters of server processes over real redis-server, some behind HAProxy.
  'packages/redis/test/authorization-server-cluster.test.ts',
  'packages/redis/test/cluster-caps.test.ts',
  'packages/redis/test/cluster-faults.test.ts',
  'packages/redis/test/cluster-legacy.test.ts',
  'packages/redis/test/cluster-modern.test.ts',
  'packages/redis/test/cluster-security.test.ts',
  'packages/redis/test/cluster-security-round-two.test.ts',
  'packages/redis/test/cluster-tasks.test.ts',
  'packages/redis/test/deployment-guide.test.ts',
  // cli: dev with its reloads, build, bundle, install, call, inspect, proxy: an mcp-fw process per
  // test, most with a server process, a tsc or an esbuild behind it.
  'packages/cli/test/auth-doctor-token-checks.test.ts',
  'packages/cli/test/auth-doctor.test.ts',
  'packages/cli/test/build-bundle.test.ts',
  'packages/cli/test/bundle-lazy-requires.test.ts',
  'packages/cli/test/bundle-lazy-file.test.ts',
  'packages/cli/test/build-mcpb.test.ts',
  'packages/cli/test/build-start.test.ts',
  'packages/cli/test/build-views.test.ts',
  'packages/cli/test/call-elicitation.test.ts',
  'packages/cli/test/call-remote.test.ts',
  'packages/cli/test/call-task.test.ts',
  'packages/cli/test/call.test.ts',
  'packages/cli/test/client-types.test.ts',
  'packages/cli/test/conventions.test.ts',
  'packages/cli/test/decorator-errors.test.ts',
  'packages/cli/test/dev-http.test.ts',
  'packages/cli/test/dev-inspector.test.ts',
  'packages/cli/test/dev-reload.test.ts',
  'packages/cli/test/dev-schemas.test.ts',
  'packages/cli/test/dev-session-state.test.ts',
  'packages/cli/test/dev-skills.test.ts',
  'packages/cli/test/dev-type-schemas.test.ts',
  'packages/cli/test/dev-views.test.ts',
  'packages/cli/test/inspect.test.ts',
  'packages/cli/test/install.test.ts',
  'packages/cli/test/launcher-encoding.test.ts',
  'packages/cli/test/project-default.test.ts',
  'packages/cli/test/proxy-gateway.test.ts',
  // proxy: the conformance fixture as a process behind the proxy, driven by SDK 1.x at 2024-11-05.
  'packages/proxy/test/conformance-2024-11-05.test.ts',
  // proxy: the pass-through's callback path against a raw stdio upstream process per caller.
  'packages/proxy/test/pass-through-stdio.test.ts',
  'packages/cli/test/publish.test.ts',
  'packages/cli/test/stale-schemas.test.ts',
  'packages/cli/test/surface.test.ts',
  'packages/cli/test/tokens.test.ts',
  // typescript: servers and watchers as processes, schemas regenerated through tsc.
  'packages/typescript/test/serve.test.ts',
  'packages/typescript/test/watch.test.ts',
  'packages/typescript/test/plugins.test.ts',
  // client: the official conformance client scenarios, and sign-ins against server processes.
  'packages/client/test/conformance-client.test.ts',
  'packages/client/test/auth-node.test.ts',
  // create-mcp-server: projects written, installed, built, tested and reloaded.
  'packages/create-mcp-server/test/scaffold.test.ts',
  'packages/create-mcp-server/test/interactive.test.ts',
  'packages/create-mcp-server/test/oauth-dev-reload.test.ts',
  'packages/create-mcp-server/test/bad-input.test.ts',
  'packages/create-mcp-server/test/setup-failures.test.ts',
  'packages/create-mcp-server/test/own-authorization-server.test.ts',
  // examples: each started and driven by both official clients over stdio and HTTP.
  // start:serverless: a redis-server, a router and three function instances recycled as it goes.
  'examples/conformance/test/serverless.test.ts',
  'examples/logistics/test/official-clients.test.ts',
  'examples/logistics/test/readme-command.test.ts',
  'examples/files/test/official-clients.test.ts',
  'examples/weather/test/official-clients.test.ts',
  'examples/release/test/publish.test.ts',
  'examples/release/test/client-features.test.ts',
  'examples/secure-notes/test/auth-server.test.ts',
  'examples/telemetry/test/short-session.test.ts',
  'examples/petstore/test/official-clients.test.ts',
  // cli: the authorization-server doctor against secure-notes processes; the openapi and workers
  // builds as CLI processes.
  'packages/cli/test/auth-doctor-authorization-server.test.ts',
  'packages/cli/test/openapi.test.ts',
  'packages/cli/test/build-workers.test.ts',
  // openapi: generated projects type-checked and served; auth: machine clients with the official
  // clients over HTTP.
  'packages/openapi/test/codegen.test.ts',
  'packages/auth/test/authorization-server-machine.test.ts',
  // docs: every page's TypeScript compiled, and the whole programs run; TypeDoc over every entry
  // point for the API reference.
  'docs/test/code-samples.test.ts',
  'docs/test/api-reference.test.ts',
  // auth and client: whole OAuth flows against oidc-provider and protected server processes.
  'packages/auth/test/oauth-flows.test.ts',
  'packages/client/test/auth-oidc-provider.test.ts',
];
