// Loads the committed benchmark results for the performance page, at build time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineLoader } from 'vitepress';

export interface BenchValue {
  readonly subject: string;
  readonly value: number;
}
export interface BenchMetric {
  readonly id: string;
  readonly title: string;
  readonly unit: string;
  readonly better: 'lower' | 'higher';
  readonly values: readonly BenchValue[];
}
export interface BenchData {
  readonly source: string;
  readonly date: string;
  readonly machine: string;
  readonly node: string;
  readonly metrics: readonly BenchMetric[];
}

declare const data: BenchData;
export { data };

export default defineLoader({
  watch: ['./bench.json'],
  load(): BenchData {
    return JSON.parse(readFileSync(join(import.meta.dirname, 'bench.json'), 'utf8'));
  },
});
