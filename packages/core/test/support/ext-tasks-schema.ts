import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { EXT_TASKS_SCHEMA } from './paths.ts';

let ajv: Ajv2020 | undefined;

/**
 * Validates `value` against one definition of the tasks extension's own schema
 * (vendor/ext-tasks/schema.json), e.g. `DetailedTask`, `CreateTaskResult`; returns the
 * problems, empty when valid.
 */
export function checkTaskMessage(definition: string, value: unknown): string[] {
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    ajv.addSchema(JSON.parse(readFileSync(EXT_TASKS_SCHEMA, 'utf8')), 'tasks');
  }
  const validate = ajv.getSchema(`tasks#/$defs/${definition}`);
  if (!validate) throw new Error(`the tasks extension schema has no ${definition}`);
  return validate(value) ? [] : [`${definition}: ${ajv.errorsText(validate.errors)}`];
}
