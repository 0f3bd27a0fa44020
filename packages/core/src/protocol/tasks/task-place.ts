// Where one server's task records live, the bus to the other instances, and this instance's name.
import type { MessageBus, TaskRecords } from '../../stores/index.js';

/**
 * Where the tasks of one server are kept: in memory until {@link Tasks.share} moves them to the
 * shared store (then `bus` reaches the instance running a task and `node` names this one). The
 * parts of `Tasks` hold the same object, so a share is seen by all of them at once.
 */
export interface TaskPlace {
  records: TaskRecords;
  bus?: MessageBus;
  node: string;
}
