import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createServer,
  MemoryRateLimitStore,
  Prompt,
  StartupError,
  Tool,
  type ServerLimits,
} from '@mcp-fw/core';
import { createHttpHandler } from '@mcp-fw/core/http';

function startupError(build: () => unknown): { code: string; message: string } {
  try {
    build();
  } catch (error) {
    if (error instanceof StartupError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a StartupError');
}

describe('guardrail options are checked at startup', () => {
  it('refuses a bad rateLimit or timeoutMs on a member, naming it', () => {
    class BadRate {
      @Tool({ description: 'x', input: z.object({}), rateLimit: { max: 0, perMs: 1000 } })
      x() {
        return 'x';
      }
    }
    expect(
      startupError(() => createServer({ name: 's', version: '1', providers: [BadRate] })),
    ).toEqual({
      code: 'INVALID_LIMIT',
      message: `BadRate.x: rateLimit must be { max: <integer ≥ 1>, perMs: <ms > 0>, key?: 'session' | 'identity' | 'address' | 'global' }, got {"max":0,"perMs":1000}.`,
    });
    class BadTimeout {
      @Prompt({ description: 'p', input: z.object({}), timeoutMs: -5 })
      p() {
        return 'p';
      }
    }
    expect(
      startupError(() => createServer({ name: 's', version: '1', providers: [BadTimeout] })),
    ).toEqual({
      code: 'INVALID_LIMIT',
      message:
        'BadTimeout.p: timeoutMs must be a number of milliseconds from 0 to 2147483647, or Infinity for no timeout; got -5.',
    });
  });

  it('refuses bad server-wide limits', () => {
    const server = (limits: ServerLimits) => () =>
      createServer({ name: 's', version: '1', providers: [], limits });
    expect(startupError(server({ rateLimit: { max: 1, perMs: 0 } })).message).toBe(
      `limits: rateLimit must be { max: <integer ≥ 1>, perMs: <ms > 0>, key?: 'session' | 'identity' | 'address' | 'global' }, got {"max":1,"perMs":0}.`,
    );
    expect(startupError(server({ concurrency: { perSession: 0 } })).message).toBe(
      'limits: concurrency.perSession must be an integer ≥ 1, got 0.',
    );
    expect(startupError(server({ maxResultBytes: -1 })).message).toBe(
      'limits: maxResultBytes must be a number of bytes ≥ 0 (0: no limit), got -1.',
    );
    expect(() =>
      createHttpHandler(createServer({ name: 's', version: '1', providers: [] }), {
        rateLimit: { max: 1.5, perMs: 10 },
      }),
    ).toThrow(
      `createHttpHandler: rateLimit must be { max: <integer ≥ 1>, perMs: <ms > 0>, key?: 'session' | 'identity' | 'address' | 'global' }, got {"max":1.5,"perMs":10}.`,
    );
  });
});

describe('MemoryRateLimitStore', () => {
  it('counts fixed windows per key and says how long until the window ends', () => {
    const store = new MemoryRateLimitStore();
    expect([
      store.hit('a', 2, 1000, 0),
      store.hit('a', 2, 1000, 10),
      store.hit('a', 2, 1000, 400),
    ]).toEqual([0, 0, 600]);
    expect(store.hit('b', 2, 1000, 400)).toBe(0);
    // Refused calls are not counted; a new window starts fresh.
    expect([
      store.hit('a', 2, 1000, 999),
      store.hit('a', 2, 1000, 1000),
      store.hit('a', 2, 1000, 1001),
    ]).toEqual([1, 0, 0]);
  });

  it('stays bounded: expired windows are swept, and past maxKeys the oldest go', () => {
    const store = new MemoryRateLimitStore(3);
    for (const key of ['a', 'b', 'c']) store.hit(key, 1, 100, 0);
    expect(store.size).toBe(3);
    store.hit('d', 1, 100, 50);
    expect(store.size).toBe(3);
    expect(store.hit('a', 1, 100, 60)).toBe(0); // 'a' was the oldest and was dropped
    store.hit('e', 1, 1000, 120_000); // a minute later every 100 ms window has expired
    expect(store.size).toBe(1);
  });
});
