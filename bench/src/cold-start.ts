import type { SpawnOptions } from './client.js';
import { connect } from './measure.js';
import { median } from './stats.js';

export interface ColdStart {
  spawns: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Median VmRSS right after the initialize response. */
  rssMb: number;
  /** Median CPU the server had used by its initialize answer (all threads), ms. */
  cpuMs: number;
}

export interface ColdStartSubject {
  script: string;
  options?: SpawnOptions;
}

/**
 * Spawn to first initialize response, `spawns` times per subject after one discarded round. The
 * subjects take turns, so a burst of other load on the machine hits all of them alike.
 */
export async function coldStarts<K extends string>(
  subjects: Record<K, ColdStartSubject>,
  spawns: number,
): Promise<Record<K, ColdStart>> {
  const names = Object.keys(subjects) as K[];
  const times = new Map<K, number[]>(names.map((n) => [n, []]));
  const rss = new Map<K, number[]>(names.map((n) => [n, []]));
  const cpu = new Map<K, number[]>(names.map((n) => [n, []]));
  for (let round = -1; round < spawns; round++) {
    for (const name of names) {
      const { script, options } = subjects[name];
      const { client, startMs, startRssMb, startCpuMs } = await connect(script, options);
      await client.close();
      if (round < 0) continue;
      times.get(name)!.push(startMs);
      rss.get(name)!.push(startRssMb);
      cpu.get(name)!.push(startCpuMs);
    }
  }
  const result = {} as Record<K, ColdStart>;
  for (const name of names) {
    const t = times.get(name)!;
    result[name] = {
      spawns,
      medianMs: median(t),
      minMs: Math.min(...t),
      maxMs: Math.max(...t),
      rssMb: median(rss.get(name)!),
      cpuMs: median(cpu.get(name)!),
    };
  }
  return result;
}

/** One line per subject that is not in the main table: median, minimum and RSS. */
export function coldReferences(references: Record<string, ColdStart>): string {
  const lines = Object.entries(references).map(
    ([name, c]) =>
      `  ${name.padEnd(18)} ${c.medianMs.toFixed(1).padStart(6)} ms median, ${c.minMs.toFixed(1).padStart(6)} ms min, CPU ${c.cpuMs.toFixed(1).padStart(6)} ms median, RSS ${c.rssMb.toFixed(1)} MB`,
  );
  return `cold start to initialize, also measured (${Object.values(references)[0]?.spawns ?? 0} spawns each):\n${lines.join('\n')}\n`;
}
