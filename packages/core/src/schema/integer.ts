/**
 * A whole number, for plain-typed tools whose schemas `@mcp-fw/typescript` reads from their
 * signatures: a parameter, property or array item typed `Integer` becomes
 * `{ "type": "integer" }` (plain `number` becomes `{ "type": "number" }`). Any number is
 * assignable to it and it is used like a number; the check is the schema's, at the server.
 *
 * @example
 * ```ts
 * import { Tool, type Integer } from '@mcp-fw/core';
 * class Shelf {
 *   @Tool({ description: 'Take copies of a book' })
 *   take(isbn: string, count: Integer): string {
 *     return `${count} × ${isbn}`;
 *   }
 * }
 * ```
 */
// `& {}` keeps the alias on the compiler's type (a bare `number` alias leaves no trace), while
// numbers still flow in and out without a cast.
export type Integer = number & {};
