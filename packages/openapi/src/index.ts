export { fromOpenAPI, type FromOpenAPIOptions } from './from-openapi.js';
export {
  createOperationClient,
  type CallContext,
  type OperationClient,
  type OperationFile,
  type OperationSpec,
} from './operation-client.js';
export { OpenAPIError } from './errors.js';
export type { ArgPlacement } from './input.js';
export type { OpenAPISource } from './load.js';
export type { RouteMap, MemberType } from './operations.js';
export type { UpstreamAuth } from './upstream-auth.js';
export type { UpstreamOptions } from './upstream.js';
