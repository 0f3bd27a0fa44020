// What the ten-thousand-streams benchmark raises above serveHttp's defaults (SECURITY.md's
// limits table): each of these caps how many clients one process holds, and the defaults are
// sized for a local server, not for ten thousand clients (docs/guide/deployment.md).
import { envInt } from './config.js';

/** Held streams per subject and phase (`BENCH_STREAMS`, default 10,000). */
export const STREAMS = envInt('BENCH_STREAMS', 10_000);

// Headroom over the streams themselves: the harness's calling connection, and sessions of
// streams being replaced while the last ones close.
const CAP = STREAMS + 1_000;

/** serveHttp options: connections, sessions (one per legacy GET stream), per client too. */
export const STREAM_LIMIT_OPTIONS = {
  maxConnections: CAP,
  maxSessions: CAP,
  // Every stream comes from 127.0.0.1: one "client" as far as per-client caps can tell.
  maxSessionsPerClient: CAP,
  // The harness's connections wait while other subjects are measured.
  keepAliveTimeoutMs: 600_000,
} as const;

/** createServer `limits`: open 2026-07-28 listen streams, in all and per client. */
export const STREAM_STATE_LIMITS = { maxListenStreams: CAP, maxListenStreamsPerClient: CAP };
