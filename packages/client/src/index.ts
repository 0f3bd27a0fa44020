// @mcp-fw/client: an MCP client on core's JSON-RPC engine and transport contract. Runtime-neutral
// for HTTP targets (fetch and web streams only); command targets need Node, loaded through the
// `#stdio-transport` import, whose non-Node variant only explains that.

export { connect, type ConnectOptions, type ConnectTarget } from './connect.js';
export { McpClient } from './client.js';
export {
  connectServers,
  McpClientGroup,
  type GroupOptions,
  type GroupTool,
  type McpServerEntry,
  type McpServersConfig,
} from './group.js';
export {
  AuthorizationError,
  type AuthorizationFailure,
  type AuthorizationServerMetadata,
  type ClientIdentity,
  clientCredentials,
  type EnterpriseIdentity,
  enterpriseManaged,
  MemoryTokenStore,
  OAuth,
  oauth,
  type OAuthOptions,
  type ResourceMetadata,
  type StoredClient,
  type StoredTokens,
  type TokenStore,
  workloadIdentity,
} from './auth/index.js';
export type { DiscoverResult } from './negotiate.js';
export {
  type DirectoryEntry,
  type SkillEntry,
  type SkillFile,
  type SkillListing,
  type SkillResource,
  Skills,
  SkillVerificationError,
  type SkillVerificationFailure,
} from './skills.js';
export {
  typedClient,
  type ToolTypes,
  type TypedCallResult,
  type TypedClient,
  type TypedTools,
} from './typed.js';
export type { Change, ListenFilter, Listening } from './listen.js';
export type { NotificationListener } from './session.js';
export type { TransportKind } from './transports/transport.js';
export type { CommandTarget, StdioTransportOptions } from '#stdio-transport';
export type { HttpTransportOptions } from './transports/streamable-http.js';
export {
  JsonRpcError,
  NegotiationError,
  OutputSchemaError,
  RequestTimeoutError,
  TransportError,
} from './errors.js';
export type {
  CallOptions,
  CallToolResult,
  CompleteResult,
  CompletionRef,
  ContentBlock,
  ElicitRequest,
  ElicitResult,
  Era,
  GetPromptResult,
  InputHandlers,
  InputInfo,
  JsonSchemaObject,
  LogMessage,
  Progress,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceTemplate,
  Root,
  ServerDescription,
  TaskState,
  TaskStatus,
  Tool,
} from './types.js';
