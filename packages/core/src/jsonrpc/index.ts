export {
  Engine,
  type Abortable,
  type EngineHandlers,
  type EngineOptions,
  type OutboundOptions,
} from './engine.js';
export { InboundRequest } from './inbound-request.js';
export { JsonRpcError, RawJson } from './error.js';
export { JsonRpcCode } from './codes.js';
export { REQUEST_TIMEOUT_CODE } from './outbound-requests.js';
export type { Channel, ChannelSink, FrameRoute, Peer } from './channel.js';
export type { JsonRpcId, JsonRpcRequest, JsonRpcNotification, WireError } from './messages.js';
export {
  parseFrame,
  parseUnescapedFrame,
  errorFrame,
  forEachObject,
  isValidId,
} from './messages.js';
