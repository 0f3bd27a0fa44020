export {
  HttpEndpoint,
  type EndpointAdmission,
  type HttpEndpointOptions,
  type AuthOutcome,
  type AuthRejection,
  type HttpReply,
  type MemberAccess,
} from './endpoint.js';
export { fetchExchange } from './fetch-adapter.js';
export { MemoryEventStore, type EventStore, type MemoryEventStoreOptions } from './event-store.js';
export type { HttpRequestView, HttpResponder, EventStreamSink } from './exchange.js';
export type { ResponseMode } from './request-stream.js';
export type { HealthOptions } from './health.js';
export type { ServerCardData, ServerCardOptions } from './server-card.js';
