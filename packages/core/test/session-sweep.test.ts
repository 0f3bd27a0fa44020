import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionStore, type StoredSession } from '../src/transports/http/session-store.js';

// The timer that reaps idle sessions reads every session's `busy`. With 10,000 legacy sessions
// each holding a GET stream (the ten-thousand-streams benchmark) one walk of all of them held
// the event loop for about 35 ms once a minute; it now walks them a slice at a time.
describe('SessionStore: the idle sweep', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  const limits = { idleTimeoutMs: 60_000, maxSessions: 10_000, maxSessionsPerClient: 10_000 };

  function fill(store: SessionStore<StoredSession>, n: number, busy: (i: number) => boolean) {
    const reads = { count: 0 };
    const closed: number[] = [];
    for (let i = 0; i < n; i++) {
      store.add({ remoteAddress: '127.0.0.1' }, () => ({
        lastSeen: Date.now(),
        get busy() {
          reads.count++;
          return busy(i);
        },
        close: async () => void closed.push(i),
      }));
    }
    return { reads, closed };
  }

  it('10,000 sessions holding streams are swept a slice at a time, not in one turn of the event loop', () => {
    const store = new SessionStore<StoredSession>(limits);
    const { reads } = fill(store, 10_000, () => true);
    // The interval fires: only its first slice runs in this turn.
    vi.advanceTimersToNextTimer();
    expect(reads.count).toBeGreaterThan(0);
    expect(reads.count).toBeLessThanOrEqual(1_000);
    // The rest follow on later turns, until every session was read once.
    for (let turn = 0; turn < 20 && reads.count < 10_000; turn++) vi.advanceTimersToNextTimer();
    expect(reads.count).toBe(10_000);
    expect(store.size).toBe(10_000);
  });

  it('a sliced sweep still closes every idle session without a stream, and only those', async () => {
    const store = new SessionStore<StoredSession>(limits);
    // Every third session holds a stream.
    const { closed } = fill(store, 3_000, (i) => i % 3 === 0);
    // The first sweep (at 60 s) finds none idle for longer than 60 s; the second does.
    await vi.advanceTimersByTimeAsync(120_100);
    expect(closed).toHaveLength(2_000);
    expect(closed.every((i) => i % 3 !== 0)).toBe(true);
    expect(store.size).toBe(1_000);
  });
});
