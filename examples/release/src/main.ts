// Imported first: from here on only protocol frames reach stdout.
import { serveStdio } from '@mcp-fw/core/stdio';
import { readConfig } from './config.js';
import { simulatedPipeline } from './pipeline.js';
import { createReleaseServer } from './server.js';

const config = readConfig(process.argv.slice(2), process.env);
const pipeline = simulatedPipeline(config.stepMs);
serveStdio(createReleaseServer({ pipeline, confirmTimeoutMs: config.confirmTimeoutMs }));
