import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectDevClient } from './support/dev-clients.ts';
import { runCli } from './support/cli-process.ts';
import { fixtureProject, type TempProject } from './support/temp-project.ts';
import { eventually } from './support/until.ts';

// Issue 29: schemas never go stale silently, and explicit schemas that disagree with the
// handler's types are reported in words before anything runs.
// Each test runs the CLI (the project's tsc, the schema extractor) once or twice.
vi.setConfig({ testTimeout: 120_000 });

let projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects) project.remove();
  projects = [];
});

function project(name: string): TempProject {
  const made = fixtureProject(name);
  projects.push(made);
  return made;
}

/** The typed fixture with `text` renamed to `body`, and its schemas.gen.ts left as it was. */
function renamed(): TempProject {
  const typed = project('typed');
  typed.write(
    'src/notes.ts',
    typed
      .read('src/notes.ts')
      .replace('@param text What to write', '@param body What to write')
      .replace('note(text: string', 'note(body: string')
      .replace('${text}', '${body}'),
  );
  return typed;
}

// A zod schema that gives a string where the handler takes a number: TypeScript says TS1241 at
// build, and a run without type-checking fails inside the handler (toFixed is not a function).
const MISMATCH = `import { Tool } from '@mcp-fw/core';
import { z } from 'zod';

export class Money {
  // @ts-expect-error -- the schema gives amount as a string
  @Tool({ input: z.object({ amount: z.string(), currency: z.string() }) })
  total({ amount, currency }: { amount: number; currency: string }): string {
    return \`\${amount.toFixed(2)} \${currency}\`;
  }
}
`;

function withMismatch(): TempProject {
  const greeter = project('greeter');
  addMismatch(greeter);
  return greeter;
}

/** Adds the Money provider, whose zod schema disagrees with its handler, to the server. */
function addMismatch(greeter: TempProject): void {
  greeter.write('src/money.ts', MISMATCH);
  greeter.write(
    'src/server.ts',
    greeter
      .read('src/server.ts')
      .replace(
        "import { Greeter } from './greeter.js';",
        "import { Greeter } from './greeter.js';\nimport { Money } from './money.js';",
      )
      .replace('providers: [Greeter]', 'providers: [Greeter, Money]'),
  );
}

const WORDS =
  "tool Money.total: its input schema and the arguments parameter disagree: field 'amount': the schema gives 'string', the handler expects 'number'.";

describe('renaming a parameter, then mcp-fw inspect/call', () => {
  it('the new name is what call and inspect take: the stale schemas.gen.ts is regenerated and named', async () => {
    const typed = renamed();
    const call = await runCli(['call', 'src/server.ts', 'note', 'body=milk'], typed.dir);
    expect(call.stderr).toBe(
      'mcp-fw call: src/schemas.gen.ts is out of date (src/notes.ts changed since it was generated): regenerated it.\n',
    );
    expect(call).toMatchObject({ code: 0, stdout: 'todo: milk\n' });
    expect(typed.read('src/schemas.gen.ts')).toContain('"body"');

    // Fresh now: nothing to say.
    const inspect = await runCli(['inspect', 'src/server.ts', '--json'], typed.dir);
    expect(inspect.stderr).toBe('');
    const note = JSON.parse(inspect.stdout).tools.find((t: { name: string }) => t.name === 'note');
    expect(note.inputSchema.required).toEqual(['body']);
  });

  it('a stale schemas.gen.ts that cannot be regenerated stops call, naming the file, the cause and the command', async () => {
    const typed = renamed();
    typed.write(
      'src/notes.ts',
      typed.read('src/notes.ts').replace('note(body: string', 'note(body: () => void'),
    );
    const run = await runCli(['call', 'src/server.ts', 'note', 'body=milk'], typed.dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      'src/schemas.gen.ts is out of date (src/notes.ts changed since it was generated), and it cannot be regenerated:',
    );
    expect(run.stderr).toContain("Notes.note, parameter 'body': type '() => void' is a function");
    expect(run.stderr).toContain('npx mcp-fw-schemas');
  });

  it('mcp-fw start says a build serves stale schemas, naming the file and the commands', async () => {
    const typed = project('typed');
    expect((await runCli(['build'], typed.dir)).code).toBe(0);
    typed.write(
      'src/notes.ts',
      typed
        .read('src/notes.ts')
        .replace('note(text: string', 'note(body: string')
        .replace('${text}', '${body}'),
    );
    // stdin is closed at once: the stdio server starts and ends.
    const run = await runCli(['start', 'dist/server.js'], typed.dir);
    expect(run.stderr).toContain(
      'mcp-fw start: warning: src/schemas.gen.ts is out of date (src/notes.ts changed since it was generated), ' +
        'so this build may serve the schemas of older signatures. Fix: run npx mcp-fw-schemas, then mcp-fw build.',
    );
    expect(run.stdout).toBe('');
  });
});

describe('a zod schema that disagrees with the handler type', () => {
  it('mcp-fw call names the tool, the field, what the schema gives and what the handler expects, and runs nothing', async () => {
    const greeter = withMismatch();
    // First in agreement: the passing check is remembered (by the sources' hashes) …
    greeter.write(
      'src/money.ts',
      MISMATCH.replace('amount: z.string()', 'amount: z.number()').replace(
        /^ *\/\/ @ts-expect-error.*\n/m,
        '',
      ),
    );
    const agreeing = await runCli(
      ['call', 'src/server.ts', 'total', 'amount=3', 'currency=EUR'],
      greeter.dir,
    );
    expect(agreeing).toMatchObject({ code: 0, stdout: '3.00 EUR\n' });
    expect(greeter.read('node_modules/.cache/mcp-fw/schema-agreement.stamp')).toContain('money.ts');
    // … until a source changes.
    greeter.write('src/money.ts', MISMATCH);
    const run = await runCli(
      ['call', 'src/server.ts', 'total', 'amount=3', 'currency=EUR'],
      greeter.dir,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(WORDS);
    expect(run.stderr).not.toContain('TS1241');
    expect(run.stderr).not.toContain('toFixed');
  });

  it('mcp-fw dev refuses the reload with the same words, and the session stays', async () => {
    const greeter = project('greeter');
    const client = await connectDevClient(
      '@modelcontextprotocol/sdk 1.x (2025-11-25)',
      greeter.dir,
      ['src/server.ts'],
    );
    try {
      expect(await client.toolNames()).toContain('greet');
      addMismatch(greeter);
      const failure = await eventually(
        () =>
          client.callTool('greet', { name: 'Ada' }).then(
            () => undefined,
            (error: Error) => error,
          ),
        (error) => error !== undefined,
        'calls fail with the disagreement',
      );
      expect(failure!.message).toContain(WORDS);
      expect(client.stderr()).toContain(WORDS);
    } finally {
      await client.close();
    }
  });
});
