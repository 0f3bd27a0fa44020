// Imported first: from here on only protocol frames reach stdout.
import { serveStdio } from '@mcp-fw/core/stdio';
import { benchServer } from './mcp-fw-tools.js';

// BENCH_YOUNG_GENERATION=compact measures serveStdio's opt-in; unset, what a user gets by default.
const compact = process.env.BENCH_YOUNG_GENERATION === 'compact';
serveStdio(benchServer(), compact ? { youngGeneration: 'compact' } : {});
