export { Pipeline } from './pipeline.js';
export { aroundMethod } from './around.js';
export { MiddlewareContext, type MessageSource } from './context.js';
export { memberInfo } from './member-info.js';
export type {
  Middleware,
  MiddlewareHooks,
  Hook,
  Next,
  MemberInfo,
  ReadResourceResult,
  ListResult,
  CompleteResult,
} from './types.js';
export { asToolError } from './handler-error.js';
