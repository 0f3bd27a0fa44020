import { createHash } from 'node:crypto';

/** What the stores need of a node-redis client: raw commands, in order, on one connection. */
export interface Commands {
  sendCommand<T = unknown>(args: readonly string[], options?: { timeout?: number }): Promise<T>;
}

/**
 * A Lua script run with EVALSHA, loaded with EVAL the first time Redis does not know it (after
 * a restart, or a `SCRIPT FLUSH`): one round trip each call, and atomic on the server.
 */
export class Script {
  readonly #sha: string;

  constructor(readonly source: string) {
    this.#sha = createHash('sha1').update(source).digest('hex');
  }

  async run<T>(redis: Commands, keys: readonly string[], args: readonly string[]): Promise<T> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await redis.sendCommand<T>(['EVALSHA', this.#sha, ...tail]);
    } catch (error) {
      if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
      return redis.sendCommand<T>(['EVAL', this.source, ...tail]);
    }
  }
}
