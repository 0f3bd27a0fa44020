/**
 * The identifiers of the extensions the server implements outside the eras' own folders, as
 * they appear in `capabilities.extensions` (in every revision).
 */

/** The Skills extension (SEP-2640): `skills/list`, `skills/get`, `resources/directory/read`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/**
 * The `_meta` key of a legacy server→client request (`elicitation/create`,
 * `sampling/createMessage`, `roots/list`) that carries the key the handler gave the question
 * (`ctx.elicit(…, { key })`): a gateway bridging to a 2026-07-28 client asks under that key in
 * `inputRequests`. Not a protocol key; clients ignore it.
 */
export const INPUT_KEY_META = 'dev.mcp-fw/inputKey';

/**
 * The `_meta` key of a legacy `isError` tool result that failed because the client lacks a
 * capability (a `ClientCapabilities` object, e.g. `{ sampling: {} }`): what 2026-07-28 answers
 * with -32021 `data.requiredCapabilities`, for a gateway bridging to a 2026-07-28 client.
 */
export const REQUIRED_CAPABILITIES_META = 'dev.mcp-fw/requiredCapabilities';
