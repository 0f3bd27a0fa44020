export { fromOpenAPI, type FromOpenAPIOptions } from './from-openapi.js';
export { OpenAPIError } from './errors.js';
export type { OpenAPISource } from './load.js';
export type { RouteMap, MemberType } from './operations.js';
export type { UpstreamAuth } from './upstream-auth.js';
