export {
  Tool,
  TOOL_KIND,
  type ToolOptions,
  type ToolAnnotations,
  type Icon,
  type SchemaSource,
  type ToolUi,
  type ToolDeprecation,
  type ToolUiOptions,
} from './tool.js';
export { Arg, type ArgOptions } from './arg.js';
export {
  classRecords,
  type ClassRecord,
  type MemberRecord,
  type ArgRecord,
  type MemberKey,
} from './metadata.js';
export { methodDecorator, type MethodDecorator } from './method-decorator.js';
export type { TypedMethodDecorator, SchemaOutput } from './typed-method.js';
export {
  Resource,
  RESOURCE_KIND,
  type ResourceOptions,
  type ResourceEntry,
  type ResourceAnnotations,
} from './resource.js';
export {
  View,
  type ViewOptions,
  type ViewCsp,
  type ViewPermissions,
} from './view.js';
export { Prompt, PROMPT_KIND, type PromptOptions } from './prompt.js';
export type { Completer } from './completion.js';
export { Scopes, classScopes, type MemberScopeOptions } from './scopes.js';
export type { RateLimit, RateLimitKey, MemberLimitOptions } from './limits.js';
export type { TaskMode, TaskOptions } from './task-option.js';
export { useDecorator, usedMiddleware, type UseDecorator } from './use.js';
