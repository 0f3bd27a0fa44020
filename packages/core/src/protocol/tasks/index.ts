export {
  Tasks,
  type TaskListener,
  type TaskRelay,
  type TaskTiming,
  type TaskWork,
} from './tasks.js';
export { TASK_LIMIT_DEFAULTS, type TaskLimits } from './task-limits.js';
export {
  TERMINAL,
  type TaskError,
  type TaskOutcome,
  type TaskSnapshot,
  type TaskStatus,
} from './task-snapshot.js';
export { ownsTask, taskOwner, taskRecordOwner } from './task-owner.js';
export { MemoryTaskRecords } from './memory-task-records.js';
export { TaskRun } from './task-run.js';
