import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// A full GC without starting node with --expose-gc (workers do not inherit the flag).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap in use after a full collection, in MiB. */
export function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}
