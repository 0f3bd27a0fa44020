// Sharing the tasks running here with the other instances: this instance's beat and its bus topic.
import type { LocalTasks } from './local-tasks.js';
import { readTaskMessage, topicOf } from './task-messages.js';
import type { MessageBus, TaskRecords } from '../../stores/index.js';

// An instance that shares its tasks says it is alive this often, for this long: a task whose
// instance has not said so within NODE_TTL_MS is reported failed by whoever reads it.
const BEAT_EVERY_MS = 2_000;
const NODE_TTL_MS = 6_000;

/**
 * Beats for `node` in `records` and hears its topic on `bus` (`task:<node>`): the answers and the
 * ends other instances send the tasks running here. Resolves, once the topic is heard, with the
 * function that stops both.
 */
export async function shareTasks(
  records: TaskRecords,
  bus: MessageBus,
  node: string,
  local: LocalTasks,
): Promise<() => void> {
  await records.beat(node, NODE_TTL_MS);
  const stop = await bus.subscribe(topicOf(node), (raw) => received(local, raw));
  const timer = setInterval(() => {
    records.beat(node, NODE_TTL_MS).catch(() => {
      // The store is unreachable now; the next beat tries again.
    });
  }, BEAT_EVERY_MS);
  (timer as { unref?: () => void }).unref?.();
  return () => {
    clearInterval(timer);
    stop();
  };
}

function received(local: LocalTasks, raw: string): void {
  const message = readTaskMessage(raw);
  const entry = message && local.entry(message.id);
  if (!message || !entry) return;
  if (message.k === 'update') local.answer(entry, message.r);
  else local.adopt(entry, message.s);
}
