// Only the stdio benchmark's cold-start phase, with more spawns: each server as tsc emits it and
// bundled, the bare floor and the floor with zod. Usage: `npm run bench:cold` (builds first);
// BENCH_COLD_SPAWNS (default 21) and BENCH_SERVERS as for `npm run bench`.
import { killAll } from './client.js';
import { coldReferences, coldStarts } from './cold-start.js';
import { bundledName, coldStartSubjects } from './cold-subjects.js';
import { envInt, selectedServers } from './config.js';
import { machineFacts, sourceState } from './machine.js';
import { clockTicksPerSecond, idleShare } from './proc.js';
import { SCRIPTS, SERVERS, type ServerName } from './report.js';
import { runScript, writeReport } from './script.js';


async function main(): Promise<void> {
  const selected = (selectedServers ?? [...SERVERS]) as ServerName[];
  const spawns = envInt('BENCH_COLD_SPAWNS', 21);
  const machine = { ...machineFacts(clockTicksPerSecond()), idleShareAtStart: await idleShare(1000) };
  process.stderr.write(`mcp-fw cold-start benchmark, node ${machine.node}, ${spawns} spawns per subject, taking turns\n`);
  const subjects = await coldStartSubjects(selected, SCRIPTS);
  const cold = await coldStarts(subjects, spawns);
  console.log(coldReferences(cold));
  const ours = cold[bundledName('mcp-fw')];
  if (ours) console.log(`${ours.medianMs < 100 ? 'PASS' : 'FAIL'}  cold start < 100 ms (mcp-fw build --bundle): ${ours.medianMs.toFixed(1)} ms (median)`);
  writeReport('cold.json', { date: new Date().toISOString(), source: sourceState(), machine, spawns, coldStart: cold });
}

runScript(main, killAll);
