// The tasks module's surface for the rest of protocol.
export { Tasks } from './tasks.js';
export type { TaskListener, TaskRelay, TaskTiming, TaskWork } from './task-work.js';
export { TASK_LIMIT_DEFAULTS, type TaskLimits } from './task-limits.js';
export {
  TERMINAL,
  type TaskError,
  type TaskOutcome,
  type TaskSnapshot,
  type TaskStatus,
} from './task-snapshot.js';
export { ownsTask, taskOwner, taskOwnerOf, taskRecordOwner } from './task-owner.js';
export { MemoryTaskRecords } from './memory-task-records.js';
export { TaskRun } from './task-run.js';
