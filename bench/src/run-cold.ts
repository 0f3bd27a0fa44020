// Only the stdio benchmark's cold-start phase, with more spawns: each server as tsc emits it and
// bundled, the bare floor and the floor with zod. Usage: `npm run bench:cold` (builds first);
// BENCH_COLD_SPAWNS (default 21) and BENCH_SERVERS as for `npm run bench`.
import { killAll } from './client.js';
import { coldReferences, coldStarts } from './cold-start.js';
import { bundledName, coldStartSubjects, keepsExtraCaCerts } from './cold-subjects.js';
import { envInt, selectedServers } from './config.js';
import { machineFacts } from './machine.js';
import { clockTicksPerSecond, idleShare, Interference } from './proc.js';
import { SCRIPTS, SERVERS, type ServerName } from './report.js';
import { printVerdicts, reportHeader, runScript, type Verdict, writeReport } from './script.js';

async function main(): Promise<void> {
  const selected = (selectedServers ?? [...SERVERS]) as ServerName[];
  const spawns = envInt('BENCH_COLD_SPAWNS', 21);
  const machine = {
    ...machineFacts(clockTicksPerSecond()),
    idleShareAtStart: await idleShare(1000),
  };
  process.stderr.write(
    `mcp-fw cold-start benchmark, node ${machine.node}, ${spawns} spawns per subject, taking turns\n`,
  );
  if (process.env.NODE_EXTRA_CA_CERTS && !keepsExtraCaCerts)
    process.stderr.write(
      'NODE_EXTRA_CA_CERTS is set here; the subjects start without it (BENCH_KEEP_EXTRA_CA_CERTS=1 keeps it)\n',
    );
  const subjects = await coldStartSubjects(selected, SCRIPTS);
  const interference = new Interference();
  const cold = await coldStarts(subjects, spawns);
  const otherCpuShare = interference.share();
  console.log(coldReferences(cold));
  const ours = cold[bundledName('mcp-fw')];
  const bare = cold.bare;
  const verdicts: Verdict[] = [];
  if (ours) {
    verdicts.push({
      name: 'cold start < 100 ms (mcp-fw build --bundle)',
      measured: `${ours.medianMs.toFixed(1)} ms (median)`,
      pass: ours.medianMs < 100,
    });
  }
  if (ours && bare) {
    // Issue 40: a ratio to the floor started by the same node in the same run. The CPU ratio
    // is beside it because on a busy machine the wall time is mostly waiting for a CPU.
    const wall = ours.medianMs / bare.medianMs;
    const cpu = ours.cpuMs / bare.cpuMs;
    verdicts.push({
      name: 'bundled cold start ≤ 1.15× the bare floor (wall, medians)',
      measured: `${wall.toFixed(2)}× (${ours.medianMs.toFixed(1)} / ${bare.medianMs.toFixed(1)} ms); CPU to initialize ${cpu.toFixed(2)}× (${ours.cpuMs.toFixed(1)} / ${bare.cpuMs.toFixed(1)} ms)`,
      pass: wall <= 1.15,
    });
  }
  printVerdicts(verdicts, otherCpuShare);
  writeReport('cold.json', {
    ...reportHeader(machine, otherCpuShare),
    spawns,
    extraCaCerts: keepsExtraCaCerts ? (process.env.NODE_EXTRA_CA_CERTS ?? null) : null,
    coldStart: cold,
    targets: verdicts,
  });
}

runScript(main, killAll);
