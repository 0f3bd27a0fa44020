// Benchmarks three stdio MCP servers doing the same work: mcp-fw, the official SDK v2 and a bare
// hand-written responder (the floor). Usage: `npm run bench` (builds first). Not a test: it
// asserts nothing about timing, it only reports (and fails if a server answers wrongly).
import { killAll } from './client.js';
import { config, nodeArgs, pinSequential, selectedServers } from './config.js';
import { machineFacts } from './machine.js';
import { coldReferences, coldStarts, type ColdStart } from './cold-start.js';
import { bundledName, coldStartSubjects } from './cold-subjects.js';
import {
  checkEcho,
  connect,
  pipelined,
  sequential,
  sequentialRuns,
  type Pipelined,
  type SequentialRuns,
} from './measure.js';
import { clockTicksPerSecond, idleShare, Interference, peakRssKb } from './proc.js';
import { SCRIPTS, SERVERS, table, targets, type ServerName } from './report.js';
import { printVerdicts, reportHeader, runScript, writeReport } from './script.js';
import { withTimeout } from './stats.js';
import { toolsList, type ToolsList } from './tools-list.js';

export interface ServerResult {
  coldStart: ColdStart;
  sequential: SequentialRuns;
  pipelined: Pipelined;
  /** VmHWM after warm-up and the sequential runs, before the long pipelined phase. */
  peakRssBeforePipelinedMb: number;
  /** VmHWM at the end of all call phases. */
  peakRssMb: number;
  toolsList: ToolsList;
}

type CallResults = Omit<ServerResult, 'coldStart' | 'toolsList'>;

const ticksPerSecond = clockTicksPerSecond();
const MINUTES = 60_000;
const step = (what: string) => process.stderr.write(`  ${what}\n`);

async function callPhases(name: ServerName): Promise<CallResults> {
  const { client } = await connect(SCRIPTS[name], { nodeArgs });
  try {
    await checkEcho(client);
    step(`${name}: warm-up (${config.warmupCalls} calls)`);
    const warmup = async () => {
      await sequential(client, Math.ceil(config.warmupCalls / 5));
      await pipelined(client, config.warmupCalls, config.inFlight, ticksPerSecond);
    };
    await withTimeout(warmup(), 2 * MINUTES, `${name} warm-up`);
    step(`${name}: sequential (${config.sequentialRuns} runs of ${config.sequentialCalls} calls)`);
    const seq = sequentialRuns(
      client,
      config.sequentialCalls,
      config.sequentialRuns,
      pinSequential,
    );
    const sequentialResult = await withTimeout(seq, 5 * MINUTES, `${name} sequential`);
    const peakRssBeforePipelinedMb = peakRssKb(client.pid) / 1024;
    step(`${name}: pipelined (${config.pipelinedCalls} calls, ${config.inFlight} in flight)`);
    const pipe = pipelined(client, config.pipelinedCalls, config.inFlight, ticksPerSecond);
    const pipelinedResult = await withTimeout(pipe, 5 * MINUTES, `${name} pipelined`);
    return {
      sequential: sequentialResult,
      pipelined: pipelinedResult,
      peakRssBeforePipelinedMb,
      peakRssMb: peakRssKb(client.pid) / 1024,
    };
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  const selected = (selectedServers ?? [...SERVERS]) as ServerName[];
  const unknown = selected.filter((name) => !SERVERS.includes(name));
  if (unknown.length) throw new Error(`unknown servers in BENCH_SERVERS: ${unknown.join(', ')}`);
  const machine = { ...machineFacts(ticksPerSecond), idleShareAtStart: await idleShare(1000) };
  const { node, nproc, cpu } = machine;
  process.stderr.write(`mcp-fw stdio benchmark, node ${node}, ${nproc} CPUs (${cpu})\n`);
  // Other work on the machine shows up in every figure; say so rather than hide it.
  if (machine.idleShareAtStart < 0.9) {
    const busy = Math.round(100 * (1 - machine.idleShareAtStart));
    process.stderr.write(
      `warning: the machine was ${busy}% busy before the run; figures will be noisy\n`,
    );
  }

  const interference = new Interference();
  step(`cold start (${config.coldSpawns} spawns each, taking turns)`);
  const subjects = await coldStartSubjects(selected, SCRIPTS);
  const cold = await withTimeout(
    coldStarts(subjects, config.coldSpawns),
    5 * MINUTES,
    'cold start',
  );

  const results: Partial<Record<ServerName, ServerResult>> = {};
  for (const name of selected) {
    const calls = await callPhases(name);
    step(`${name}: tools/list (${config.listTools} extra tools, ${config.listRequests} requests)`);
    const list = toolsList(SCRIPTS[name], config.listTools, config.listRequests, 20);
    const listResult = await withTimeout(list, 2 * MINUTES, `${name} tools/list`);
    results[name] = { coldStart: cold[name], ...calls, toolsList: listResult };
  }

  const otherCpuShare = interference.share();
  const references = Object.fromEntries(
    Object.keys(subjects)
      .filter((name) => !(name in results))
      .map((name) => [name, cold[name]!]),
  );
  const verdicts = targets(results, cold[bundledName('mcp-fw')]);
  console.log(`\n${table(results)}\n`);
  console.log(coldReferences(references));
  printVerdicts(verdicts, otherCpuShare);

  const report = {
    ...reportHeader(machine, otherCpuShare),
    config,
    nodeArgs,
    pinSequential,
    results,
    references: { coldStart: references },
    targets: verdicts,
  };
  writeReport('latest.json', report);
}

runScript(main, killAll);
