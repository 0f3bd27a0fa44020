import {
  toJsonSchema,
  ValidatorCompiler,
  type JsonSchema,
  type Validator,
} from '../schema/index.js';
import { UserError } from './errors.js';

export interface CompiledElicitation {
  readonly requestedSchema: JsonSchema;
  readonly validate: Validator;
}

const cache = new WeakMap<object, CompiledElicitation>();
const compiler = new ValidatorCompiler();
const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * The `requestedSchema` of an elicitation and a validator for the answer, built once per schema
 * object. Elicitation forms are flat: every property a primitive, an enum, or an array of enum
 * values (the spec's PrimitiveSchemaDefinition); anything else is refused before it is sent.
 */
export function compileElicitation(source: object): CompiledElicitation {
  const hit = cache.get(source);
  if (hit) return hit;
  const json = toJsonSchema(source, 'input');
  const { $schema: _dialect, additionalProperties: _extra, ...requestedSchema } = json;
  const properties = (requestedSchema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, property] of Object.entries(properties)) {
    const type = property.type;
    const isEnumArray = type === 'array' && typeof property.items === 'object';
    if (!(typeof type === 'string' && (PRIMITIVES.has(type) || isEnumArray))) {
      throw new UserError(
        `elicitation field "${name}" must be a string, number, integer, boolean or enum (forms are flat); got ${JSON.stringify(property)}`,
      );
    }
  }
  const compiled = {
    requestedSchema: { ...requestedSchema, type: 'object', properties },
    validate: compiler.compile(source, json),
  };
  cache.set(source, compiled);
  return compiled;
}
