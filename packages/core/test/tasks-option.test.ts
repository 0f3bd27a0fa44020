import { describe, expect, it } from 'vitest';
import { createServer, StartupError, Tool } from '../src/index.ts';

// @Tool({ task }) is checked when the server is built, like every other member option.

const serverWith = (task: unknown) => {
  class Jobs {
    @Tool({ description: 'Runs a job', task: task as never })
    run() {
      return 'done';
    }
  }
  return () => createServer({ name: 'jobs', version: '1.0.0', providers: [new Jobs()] });
};

describe('@Tool({ task })', () => {
  it.each([
    'forbidden',
    'optional',
    'required',
    {},
    { mode: 'required', ttlMs: 60_000, pollIntervalMs: 250 },
    { mode: 'required', deferred: true },
  ])('accepts %j', (task) => {
    expect(serverWith(task)).not.toThrow();
  });

  it.each([
    'sometimes',
    { mode: 'always' },
    { ttlMs: 0 },
    { ttlMs: 1.5 },
    { pollIntervalMs: -1 },
    { deferred: 'yes' },
    null,
    42,
  ])('refuses %j at startup, naming the member and the accepted forms', (task) => {
    const build = serverWith(task);
    expect(build).toThrow(StartupError);
    expect(build).toThrow(
      /Jobs\.run: task must be 'forbidden', 'optional', 'required' or \{ mode\?, ttlMs\?/,
    );
  });
});
