export { redisStore, type RedisStoreOptions } from './redis-store.js';
export {
  serverlessHandler,
  type ServerlessHandler,
  type ServerlessHandlerOptions,
} from './serverless.js';
export { RedisEventStore, type RedisEventStoreOptions } from './event-store.js';
export { RedisSessionRecords } from './session-records.js';
export { RedisBus } from './bus.js';
export { RedisRateLimitStore, RedisUsedRounds } from './counters.js';
export { RedisTaskRecords } from './task-records.js';
export { RedisSessionStates } from './session-states.js';
export {
  redisAuthorizationStore,
  RedisAuthorizationStore,
  type RedisAuthorizationStoreOptions,
} from './authorization-store.js';
