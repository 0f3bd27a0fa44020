// Issue #16, part 3: a member without a description starts with a warning on the server's
// logger (stderr by default, never stdout) that names the member and the fix.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, Prompt, Resource, Tool, type Logger } from '@mcp-fw/core';
import { recordStdStreams } from './support/std-streams.ts';

function capture(): Logger & { warnings: string[]; errors: string[] } {
  const warnings: string[] = [];
  const errors: string[] = [];
  return { warnings, errors, warn: (m) => warnings.push(m), error: (m) => errors.push(m) };
}

class Bare {
  @Tool({ input: z.object({}) })
  ping() {
    return 'pong';
  }

  @Tool({ description: '   ', input: z.object({}) })
  blank() {
    return '';
  }

  @Tool('Says hello')
  hello() {
    return 'hello';
  }

  @Prompt()
  summarise() {
    return 'Summarise.';
  }

  @Resource('mem://notes')
  notes() {
    return 'notes';
  }

  @Resource('mem://notes/{id}')
  note({ id }: { id: string }) {
    return id;
  }
}

class Described {
  @Tool('Adds one')
  inc() {
    return '1';
  }

  @Prompt('Writes a haiku')
  haiku() {
    return 'A haiku.';
  }

  @Resource('mem://described', { description: 'A described resource' })
  described() {
    return 'x';
  }
}

describe('issue #16: members without a description', () => {
  it('each gets one warning naming the member and the fix; described ones get none', () => {
    const logger = capture();
    createServer({ name: 'w', version: '1', providers: [Bare, Described], logger });
    expect(logger.errors).toEqual([]);
    expect(logger.warnings).toEqual([
      'warning: tool "ping" (Bare.ping) has no description, so the model must guess from its name what it does. ' +
        "Fix: @Tool('What it does and when to use it'), or @Tool({ description: '...' }).",
      'warning: tool "blank" (Bare.blank) has no description, so the model must guess from its name what it does. ' +
        "Fix: @Tool('What it does and when to use it'), or @Tool({ description: '...' }).",
      'warning: prompt "summarise" (Bare.summarise) has no description, so clients list it by name only. ' +
        "Fix: @Prompt('What it writes'), or @Prompt({ description: '...' }).",
      'warning: resource mem://notes (Bare.notes) has no description, so the model must guess what it holds. ' +
        "Fix: @Resource('mem://notes', { description: '...' }).",
      'warning: resource mem://notes/{id} (Bare.note) has no description, so the model must guess what it holds. ' +
        "Fix: @Resource('mem://notes/{id}', { description: '...' }).",
    ]);
  });

  it('members added at runtime are checked too, once', () => {
    const logger = capture();
    const server = createServer({ name: 'w', version: '1', providers: [Described], logger });
    expect(logger.warnings).toEqual([]);
    class Later {
      @Tool({ input: z.object({}) })
      later() {
        return 'later';
      }
    }
    server.add(new Later());
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toContain('tool "later" (Later.later) has no description');
  });

  it('the default logger writes the warning to stderr, never stdout', () => {
    const { written, stop } = recordStdStreams();
    try {
      class One {
        @Tool({ input: z.object({}) })
        one() {
          return '1';
        }
      }
      createServer({ name: 'w', version: '1', providers: [One] });
    } finally {
      stop();
    }
    expect(written).toEqual([
      {
        stream: 'stderr',
        text:
          '[mcp-fw] warning: tool "one" (One.one) has no description, so the model must guess from its name what it does. ' +
          "Fix: @Tool('What it does and when to use it'), or @Tool({ description: '...' }).\n",
      },
    ]);
  });
});
