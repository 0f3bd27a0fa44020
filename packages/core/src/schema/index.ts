export { toJsonSchema, SchemaConversionError, type SchemaIo } from './to-json-schema.js';
export { schemaFromDesignType } from './design-type.js';
export {
  ValidatorCompiler,
  setValidationEngine,
  formatIssues,
  type ValidationEngine,
  type Validator,
  type Validation,
  type ValidationIssue,
} from './validator.js';
export { isPlainObject, isDraft07, DRAFT_2020_12, type JsonSchema } from './json-schema.js';
export type { Integer } from './integer.js';
export { isStandardSchema, type StandardSchemaV1, type InferOutput } from './standard-schema.js';
export {
  parseUriTemplate,
  isUriTemplate,
  UriTemplateError,
  type UriTemplate,
} from './uri-template.js';
