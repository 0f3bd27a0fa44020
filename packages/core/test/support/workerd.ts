// Real workerd for the tests: scripts/workerd.mjs bundles a module worker as a Workers build
// does and serves it on loopback (the same runner as examples/conformance's start:workers).
export {
  bundleWorker,
  startWorkerd as startWorker,
  type RunningWorkerd as RunningWorker,
  type WorkerdSpec as WorkerSpec,
} from '../../../../scripts/workerd.mjs';
