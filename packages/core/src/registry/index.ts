export { Registry, type MemberKind } from './registry.js';
export type { Provider, Members } from './scan.js';
export { undescribedMembers } from './member-warnings.js';
export type { ToolDefinition } from './tool-definition.js';
export { typeSchemasOption, type TypeSchemas, type TypeSchemaEntry } from './type-schemas.js';
export type { ResourceDefinition, TemplateDefinition } from './resource-definition.js';
export type { ResourceEntry, Completer, RateLimit, RateLimitKey } from '../decorators/index.js';
export type { PromptDefinition, PromptArgument } from './prompt-definition.js';
export type { GetPromptResult, PromptMessage } from './normalise-prompt.js';
export { invokeTool } from './invoke-tool.js';
export { isThenable, thenMaybe, promised, type MaybePromise } from './maybe-async.js';
export {
  readResource,
  findResource,
  readMatch,
  getPrompt,
  complete,
  type ResourceMatch,
} from './invoke-member.js';
export { checkRateLimit, checkTimeout, type MemberLimits } from './member-limits.js';
export type { MemberTask } from './member-task.js';
export {
  UserError,
  StartupError,
  InvalidArgumentsError,
  ToolExecutionError,
  OutputValidationError,
  ResourceNotFoundError,
  UnserialisableResultError,
  ViewDocumentError,
  type StartupErrorCode,
} from './errors.js';
export * from './content.js';
export { base64UrlOf, fromBase64Url } from './base64.js';
export { compileElicitation, type CompiledElicitation } from './elicitation-schema.js';
export type { StandardSchemaV1, InferOutput } from '../schema/index.js';
export { namespaced, checkNamespace } from './namespaced.js';
export { mountedMembers, type MountPoint } from './mount.js';
export {
  transformTool,
  type ToolTransform,
  type ArgTransform,
  type ForwardCall,
} from './transform-tool.js';
export { Transforms, checkTransformTarget } from './transforms.js';
export { checkFilter, filtered, type MemberFilter, type MemberSelector } from './member-filter.js';
export { membersAsTools, type ExposeAsTools } from './members-as-tools.js';
export { checkToolSearch, searchable, type ToolSearch } from './tool-search.js';
export {
  checkCodeMode,
  withCodeMode,
  type CodeMode,
  type ScriptSandbox,
  type ScriptHost,
  type ScriptOutcome,
} from './code-mode.js';
export { toolSignatures, typeOfSchema } from './tool-signatures.js';
export { compareVersions, newestVersions, versionOf } from './tool-versions.js';
export {
  surfaceFingerprint,
  surfaceContract,
  SURFACE_FINGERPRINT_KEY,
} from './surface-fingerprint.js';
export { Bm25Index, tokens, type Bm25Doc } from './bm25.js';
export type { Composition } from './registry.js';
export {
  SkillCatalog,
  SKILL_LIMITS,
  DIRECTORY_MIME_TYPE,
  type SkillSource,
  type SkillEntry,
  type SkillFileEntry,
  type DirectoryChild,
} from './skills.js';
export {
  UI_EXTENSION,
  VIEW_MIME_TYPE,
  appOnly,
  rendersViews,
  viewProblem,
  type ViewSpec,
} from './views.js';
