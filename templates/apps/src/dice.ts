import { readFile } from 'node:fs/promises';
import { Tool, View, type Context } from '@mcp-fw/core';
import { z } from 'zod';

// `mcp-fw build` bundles views/dice/ into dist/views/dice.html (one self-contained file). The
// path is the same from src/ (tests, mcp-fw dev) and from dist/ (npm start).
const VIEW_FILE = new URL('../dist/views/dice.html', import.meta.url);

const Roll = z.object({ count: z.number().int().min(1).max(6).default(2) });

function roll(count: number): number[] {
  return Array.from({ length: count }, () => 1 + Math.floor(Math.random() * 6));
}

/** Dice with a view: `roll_dice` shows them, the view's button calls the app-only `reroll`. */
export class Dice {
  @View('ui://dice/table', {
    title: 'Dice table',
    description: 'The dice as rolled, with a button to roll again',
    prefersBorder: true,
  })
  async table(): Promise<string> {
    try {
      return await readFile(VIEW_FILE, 'utf8');
    } catch {
      throw new Error(
        `${VIEW_FILE.pathname} is missing. Fix: run npm run build (it bundles views/dice/).`,
      );
    }
  }

  @Tool({
    description: 'Rolls some six-sided dice and shows them on a table',
    input: Roll,
    output: z.object({ dice: z.array(z.number()) }),
    ui: 'ui://dice/table',
  })
  roll_dice({ count }: z.infer<typeof Roll>, ctx: Context) {
    const dice = roll(count);
    // A client that shows no views gets the roll as text.
    const text = ctx.rendersViews ? `Rolled ${dice.length} dice.` : `Rolled ${dice.join(', ')}.`;
    return { content: [{ type: 'text' as const, text }], structuredContent: { dice } };
  }

  @Tool({
    description: 'Rolls the dice again (the view calls it; the model is never offered it)',
    input: Roll,
    output: z.object({ dice: z.array(z.number()) }),
    ui: { resource: 'ui://dice/table', visibility: ['app'] },
  })
  reroll({ count }: z.infer<typeof Roll>) {
    const dice = roll(count);
    return {
      content: [{ type: 'text' as const, text: dice.join(', ') }],
      structuredContent: { dice },
    };
  }
}
