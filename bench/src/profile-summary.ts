// Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time per function and per package,
// and total (inclusive) time of functions whose name matches a filter.
// Usage: node bench/dist/profile-summary.js <file.cpuprofile> [top=25] [filter-regexp]
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg, filter] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [top] [filter-regexp]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const top = Number(topArg ?? 25);

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) =>
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
);
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

function where(n: ProfileNode): string {
  const url = n.callFrame.url;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.includes('/packages/core/')) return '@mcp-fw/core';
  if (url.includes('/bench/')) return 'bench';
  if (url.startsWith('node:')) return 'node internals';
  return url ? url : '(vm)';
}

function label(n: ProfileNode): string {
  const short = n.callFrame.url.replace(/^.*\/(node_modules|packages|bench)\//, '$1/');
  return `${n.callFrame.functionName || '(anonymous)'} ${short}:${n.callFrame.lineNumber + 1}`;
}

function print(title: string, entries: [string, number][]): void {
  console.log(`\n${title}`);
  for (const [name, us] of entries.sort((a, b) => b[1] - a[1]).slice(0, top)) {
    const share = ((100 * us) / total).toFixed(1).padStart(6);
    console.log(`${share}%  ${(us / 1000).toFixed(1).padStart(8)} ms  ${name}`);
  }
}

const fnSelf = new Map<string, number>();
const pkgSelf = new Map<string, number>();
for (const [id, us] of selfUs) {
  const n = byId.get(id)!;
  fnSelf.set(label(n), (fnSelf.get(label(n)) ?? 0) + us);
  pkgSelf.set(where(n), (pkgSelf.get(where(n)) ?? 0) + us);
}
console.log(`total sampled: ${(total / 1000).toFixed(1)} ms`);
print('self time by package', [...pkgSelf]);
print('self time by function', [...fnSelf]);

if (filter) {
  // Inclusive time: each sample counts once for every distinct matching frame on its stack.
  const re = new RegExp(filter);
  const inclusive = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur)!;
      const name = label(n);
      if (re.test(name) && !seen.has(name)) {
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + us);
      }
    }
  }
  print(`inclusive time of frames matching /${filter}/`, [...inclusive]);
}
