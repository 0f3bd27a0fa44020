/**
 * Turns `ctx.auth` into the identity string rate limits and the audit log use.
 *
 * @example
 * ```ts
 * createServer({ name: 'x', version: '1', providers: [Tools], limits: { identify: (auth) => (auth as Jwt | undefined)?.email } });
 * ```
 */
export type Identify = (auth: unknown) => string | undefined;

const ID_FIELDS = ['sub', 'subject', 'clientId', 'userId', 'id'] as const;

/**
 * The default {@link Identify}: a string `auth` is the identity; an object's `sub`, `subject`,
 * `clientId`, `userId` or `id` (the first that is a string or number); otherwise none.
 */
export function defaultIdentify(auth: unknown): string | undefined {
  if (typeof auth === 'string') return auth;
  if (typeof auth !== 'object' || auth === null) return undefined;
  for (const field of ID_FIELDS) {
    const value = (auth as Record<string, unknown>)[field];
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  }
  return undefined;
}

/**
 * The principal a legacy HTTP session is bound to: `identify`'s name for `auth`, else the whole
 * of `auth` (so an authentication result without a recognised name field still binds).
 */
export function principalOf(identify: Identify, auth: unknown): string | undefined {
  if (auth === undefined || auth === null) return undefined;
  const named = identify(auth);
  if (named !== undefined) return named;
  try {
    return `auth:${JSON.stringify(auth)}`;
  } catch {
    return `auth:${String(auth)}`;
  }
}
