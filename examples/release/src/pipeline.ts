import { setTimeout as sleep } from 'node:timers/promises';

/** The steps of a release, in order. */
export const RELEASE_STEPS = ['tag', 'build', 'upload', 'announce'] as const;
export type ReleaseStep = (typeof RELEASE_STEPS)[number];

/** Does the work of one release step; a real one would call git, the registry, the blog. */
export interface ReleasePipeline {
  run(step: ReleaseStep, version: string, signal: AbortSignal): Promise<void>;
}

/**
 * A pipeline that only takes time, so the example runs offline; stops early when `signal`
 * fires, as real work should.
 */
export function simulatedPipeline(stepMs: number): ReleasePipeline {
  return {
    run: async (_step, _version, signal) => {
      await sleep(stepMs, undefined, { signal });
    },
  };
}
