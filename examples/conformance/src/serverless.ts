// The conformance fixture as a serverless Node function (the default export Vercel, Netlify or a
// Lambda-style Node runtime serves): 2026-07-28 requests on whichever instance takes them, legacy
// sessions in Redis (REDIS_URL), so a session survives the instance that opened it.
// `npm run start:serverless -- --port N` serves it on a local serverless platform
// (scripts/serverless-host.mjs: a router, three instances, each recycled after a few requests).
import { serverlessHandler } from '@mcp-fw/redis';
import { createConformanceServer } from './server.js';

// A `retry:` hint on priming events, as main.ts gives, for the suite's SSE polling scenario.
export default serverlessHandler(() => createConformanceServer(), { http: { retryMs: 1000 } });
