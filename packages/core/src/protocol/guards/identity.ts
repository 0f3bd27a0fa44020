/**
 * Turns `ctx.auth` into the identity string rate limits and the audit log use.
 *
 * @example
 * ```ts
 * createServer({ name: 'x', version: '1', providers: [Tools], limits: { identify: (auth) => (auth as Jwt | undefined)?.email } });
 * ```
 */
export type Identify = (auth: unknown) => string | undefined;

// Fields naming a user, in order of preference; a client is named only when no user is.
const USER_FIELDS = ['sub', 'subject', 'userId', 'id'] as const;
const CLIENT = 'client:';
const USER = 'user:';

/**
 * The default {@link Identify}: a string `auth` is the identity; an object names a user by its
 * `sub`, `subject`, `userId` or `id` (the first that is a string or number), else the OAuth
 * client acting for no user by its `clientId`, as `client:<id>`; otherwise none.
 *
 * Users and clients live in separate namespaces, so a token without a user whose client id is
 * `alice` is never the user `alice` (none of her sessions, rounds, tasks or budgets). A user is
 * named as is, unless the name itself starts with `client:` or `user:`: then it is written
 * `user:<name>`, so no user name can ever equal a client's.
 */
export function defaultIdentify(auth: unknown): string | undefined {
  if (typeof auth === 'string') return auth;
  if (typeof auth !== 'object' || auth === null) return undefined;
  const fields = auth as Record<string, unknown>;
  for (const field of USER_FIELDS) {
    const value = fields[field];
    if (typeof value === 'number') return String(value);
    if (typeof value === 'string')
      return value.startsWith(CLIENT) || value.startsWith(USER) ? USER + value : value;
  }
  const client = fields.clientId;
  if (typeof client === 'string' || typeof client === 'number') return CLIENT + client;
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
