/**
 * The identifiers of the extensions the server implements outside the eras' own folders, as
 * they appear in `capabilities.extensions` (in every revision).
 */

/** The Skills extension (SEP-2640): `skills/list`, `skills/get`, `resources/directory/read`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
