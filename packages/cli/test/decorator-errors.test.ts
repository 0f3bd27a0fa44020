import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli, startCli } from './support/cli-process.ts';
import { until } from './support/until.ts';
import { fixtureProject } from './support/temp-project.ts';

// A project without "experimentalDecorators" that uses @Arg: TypeScript reports TS1206 only when
// it type-checks, and drops the decorator. build, inspect/call and dev all say so, with the
// tsconfig flags that fix it.
const project = fixtureProject('standard-decorators');
afterAll(() => project.remove());

const FIX =
  'Set "experimentalDecorators": true and "emitDecoratorMetadata": true in the compilerOptions of tsconfig.json: ' +
  "@Arg and the other parameter decorators exist only with TypeScript's legacy decorators (without them TypeScript " +
  'reports TS1206 and drops the decorator), and the metadata gives untyped arguments their schema.';

describe('@Arg without experimentalDecorators', () => {
  it('fails mcp-fw build with TypeScript’s error and the flag that fixes it', async () => {
    expect(await runCli(['build'], project.dir)).toEqual({
      code: 1,
      stdout: 'src/server.ts(7,9): error TS1206: Decorators are not valid here.\n',
      stderr: `mcp-fw: TypeScript reported errors (above), among them decorator errors, so the build is not complete.\n${FIX}\n`,
    });
  });

  it('fails mcp-fw inspect and call with the same cause and fix', async () => {
    const expected = {
      code: 1,
      stdout: '',
      stderr: `mcp-fw: src/server.ts does not compile: src/server.ts(7,9): error TS1206: Decorators are not valid here.\n${FIX}\n`,
    };
    expect(await runCli(['inspect'], project.dir)).toEqual(expected);
    expect(await runCli(['call', 'greet', 'name=Ada'], project.dir)).toEqual(expected);
  });

  it('is reported by mcp-fw dev, which keeps running for the fix', async () => {
    const { child, stderr } = startCli(['dev', '--http'], project.dir, cliEnv({ PORT: '0' }));
    try {
      await until(() => stderr().includes(FIX), 'dev reports the decorator error with its fix');
      expect(stderr()).toContain(
        'src/server.ts does not compile: src/server.ts(7,9): error TS1206: Decorators are not valid here.\n',
      );
      expect(child.exitCode).toBe(null);
    } finally {
      child.kill();
    }
  });
});
