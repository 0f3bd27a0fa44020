// The proxy's own CPU per forwarded call against the CPU our server spends on a local call, in
// one run: the bench's mcp-fw server (stdio) called directly, and the same server behind
// @mcp-fw/proxy (src/proxy-server.ts, stdio in and out), and the same server behind the floor
// of a forwarding proxy (src/bare-proxy.ts), pipelined `add` calls, rounds taking turns. Usage: `npm run bench:proxy` (builds first). Not a test: it only reports.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAll } from './client.js';
import { envInt } from './config.js';
import { connect, pipelined } from './measure.js';
import { clockTicksPerSecond, cpuTicks } from './proc.js';
import { quantile } from './stats.js';

const config = {
  rounds: envInt('BENCH_PROXY_ROUNDS', 3),
  warmupCalls: envInt('BENCH_PROXY_WARMUP_CALLS', 10_000),
  calls: envInt('BENCH_PROXY_CALLS', 40_000),
  inFlight: envInt('BENCH_IN_FLIGHT', 64),
};
const ticksPerSecond = clockTicksPerSecond();
const server = fileURLToPath(new URL('./mcp-fw-server.js', import.meta.url));
const proxyServer = fileURLToPath(new URL('./proxy-server.js', import.meta.url));
const bareProxy = fileURLToPath(new URL('./bare-proxy.js', import.meta.url));
// BENCH_PROXY_BEFORE=<checkout>: that checkout's built proxy (another commit, built in a scratch
// copy) takes its turn in every round too: before/after figures of a change in one sitting.
const before = process.env.BENCH_PROXY_BEFORE;
const beforeProxy = before ? resolve(before, 'bench/dist/proxy-server.js') : undefined;

/** The proxy's upstream: its one child that is still running. */
function childrenOf(pid: number): number[] {
  const tasks = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return tasks === '' ? [] : tasks.split(/\s+/).map(Number);
}

async function main(): Promise<void> {
  const direct = await connect(server);
  // BENCH_PROXY_PROFILE=<dir>: a V8 CPU profile of the proxy (see profile-summary.ts).
  const profile = process.env.BENCH_PROXY_PROFILE;
  const proxied = await connect(
    proxyServer,
    profile ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profile}`] } : {},
  );
  const floor = await connect(bareProxy);
  const earlier = beforeProxy ? await connect(beforeProxy) : undefined;
  await pipelined(direct.client, config.warmupCalls, config.inFlight, ticksPerSecond);
  await pipelined(proxied.client, config.warmupCalls, config.inFlight, ticksPerSecond);
  await pipelined(floor.client, config.warmupCalls, config.inFlight, ticksPerSecond);
  if (earlier) await pipelined(earlier.client, config.warmupCalls, config.inFlight, ticksPerSecond);
  const local: number[] = [];
  const proxy: number[] = [];
  const proxyBefore: number[] = [];
  const behind: number[] = [];
  const forwarder: number[] = [];
  for (let round = 0; round < config.rounds; round++) {
    local.push(
      (await pipelined(direct.client, config.calls, config.inFlight, ticksPerSecond)).cpuUsPerCall,
    );
    // The upstream's CPU while it serves the proxied calls: the same work as `local`, plus
    // the proxy's per-session connection (a second session on one of its processes).
    const upstreams = childrenOf(proxied.client.pid);
    const before = upstreams.map(cpuTicks);
    proxy.push(
      (await pipelined(proxied.client, config.calls, config.inFlight, ticksPerSecond)).cpuUsPerCall,
    );
    const spent = upstreams.reduce((sum, pid, i) => sum + cpuTicks(pid) - before[i], 0);
    behind.push((spent * 1e6) / ticksPerSecond / config.calls);
    forwarder.push(
      (await pipelined(floor.client, config.calls, config.inFlight, ticksPerSecond)).cpuUsPerCall,
    );
    if (earlier)
      proxyBefore.push(
        (await pipelined(earlier.client, config.calls, config.inFlight, ticksPerSecond))
          .cpuUsPerCall,
      );
    process.stderr.write(
      `  round ${round + 1}: local ${local[round].toFixed(1)} µs, proxy ${proxy[round].toFixed(1)} µs, upstream behind it ${behind[round].toFixed(1)} µs, bare forwarder ${forwarder[round].toFixed(1)} µs${earlier ? `, proxy before ${proxyBefore[round].toFixed(1)} µs` : ''}\n`,
    );
  }
  const median = (values: number[]) => quantile(values, 0.5);
  const report = {
    calls: config.calls,
    rounds: config.rounds,
    inFlight: config.inFlight,
    localCpuUsPerCall: median(local),
    proxyCpuUsPerCall: median(proxy),
    upstreamBehindProxyCpuUsPerCall: median(behind),
    bareForwarderCpuUsPerCall: median(forwarder),
    ratio: median(proxy) / median(local),
    bareForwarderRatio: median(forwarder) / median(local),
    ...(earlier
      ? {
          proxyBeforeCpuUsPerCall: median(proxyBefore),
          proxyBeforeRatio: median(proxyBefore) / median(local),
        }
      : {}),
    target: 1.5,
  };
  console.log(JSON.stringify(report, null, 2));
  await direct.client.close();
  await proxied.client.close();
  await floor.client.close();
  await earlier?.client.close();
}

main().then(
  () => killAll(),
  (error: unknown) => {
    killAll();
    console.error(error);
    process.exitCode = 1;
  },
);
