export { Registry } from './registry.js';
export type { Provider } from './scan.js';
export type { ToolDefinition } from './tool-definition.js';
export { invokeTool } from './invoke-tool.js';
export {
  UserError,
  StartupError,
  InvalidArgumentsError,
  ToolExecutionError,
  OutputValidationError,
  type StartupErrorCode,
} from './errors.js';
export * from './content.js';
