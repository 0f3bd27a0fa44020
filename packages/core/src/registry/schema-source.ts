import type { JsonSchema } from '../schema/index.js';
import { StartupError } from './errors.js';

/**
 * Runs a schema conversion or a validator compilation, turning its failure (e.g. Ajv rejecting
 * an invalid raw JSON Schema) into a startup error that names the place.
 */
export function schemaOrStartupError<T = JsonSchema>(
  convert: () => T,
  origin: string,
  what: string,
): T {
  try {
    return convert();
  } catch (error) {
    throw new StartupError(
      'INVALID_SCHEMA',
      `${origin}: cannot use the ${what} schema: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
