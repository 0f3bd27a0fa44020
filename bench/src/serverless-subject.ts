// The benchmark's mcp-fw server as a serverless Node function (the default export a Vercel or
// Netlify function file has): the same tools as runtime-http-server.ts, legacy sessions in Redis
// (REDIS_URL). run-runtimes starts it as one instance of scripts/serverless-host.mjs, the local
// serverless platform, and times its cold start.
import { serverlessHandler } from '@mcp-fw/redis';
import { benchServer } from './mcp-fw-tools.js';

export default serverlessHandler(() => benchServer());
