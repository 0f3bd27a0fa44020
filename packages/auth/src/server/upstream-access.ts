import type { UpstreamAccess } from '../auth-info.js';
import type { ServerContext, TokenFamily } from './context.js';
import type { UpstreamTokens } from './upstream.js';

/**
 * `ctx.auth.upstream` for one sign-in: its upstream tokens, unsealed from the store, refreshed
 * when they expire. Concurrent calls of one sign-in share one refresh, since a provider that
 * rotates refresh tokens would refuse the second.
 */
export function upstreamAccess(
  ctx: ServerContext,
  familyId: string,
  refreshing: Map<string, Promise<string>>,
): UpstreamAccess {
  const name = ctx.upstream.provider.name;
  const refresh = async (family: TokenFamily, refreshToken: string): Promise<string> => {
    const fresh = await ctx.upstream.refresh(refreshToken);
    await ctx.store.set(
      `family:${familyId}`,
      JSON.stringify({ ...family, upstream: await ctx.sealer.seal(JSON.stringify(fresh)) }),
      Math.max(1, family.expiresAt - Date.now()),
    );
    return fresh.accessToken;
  };
  return {
    provider: name,
    async accessToken() {
      const pending = refreshing.get(familyId);
      if (pending) return pending;
      const text = await ctx.store.get(`family:${familyId}`);
      if (!text) throw new Error('the sign-in was revoked; the caller must sign in again');
      const family = JSON.parse(text) as TokenFamily;
      if (!family.upstream)
        throw new Error(
          `this caller was authorized by a machine grant (client credentials or an ID-JAG), not a sign-in at ${name}: there is no ${name} token to use`,
        );
      const tokens = JSON.parse(await ctx.sealer.open(family.upstream)) as UpstreamTokens;
      if (tokens.expiresAt === undefined || tokens.expiresAt - 30 > Date.now() / 1000)
        return tokens.accessToken;
      if (!tokens.refreshToken)
        throw new Error(
          `the ${name} token has expired and cannot be refreshed; the caller must sign in again`,
        );
      const again = refreshing.get(familyId);
      if (again) return again;
      const started = refresh(family, tokens.refreshToken).finally(() =>
        refreshing.delete(familyId),
      );
      refreshing.set(familyId, started);
      return started;
    },
  };
}
