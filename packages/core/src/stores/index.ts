export type { EventStore, StoredEvents } from './event-store.js';
export type { MessageBus } from './message-bus.js';
export type { SessionStateBounds, SessionStates } from './session-state.js';
export type {
  SessionChange,
  SessionRecord,
  SessionRecordRefusal,
  SessionRecords,
  RecordedSessionState,
  SharedSessionLimits,
} from './session-records.js';
export {
  StoreUnavailableError,
  type AnsweredRoundCaps,
  type AnsweredRoundRefusal,
  type SharedStore,
} from './shared-store.js';
export type { SharedTaskLimits, TaskRecord, TaskRecords } from './task-records.js';
