import type { JsonSchema } from '../schema/index.js';
import { StartupError } from './errors.js';

/** Runs a schema conversion, turning its failure into a startup error that names the place. */
export function schemaOrStartupError(convert: () => JsonSchema, origin: string, what: string): JsonSchema {
  try {
    return convert();
  } catch (error) {
    throw new StartupError(
      'INVALID_SCHEMA',
      `${origin}: cannot use the ${what} schema: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
