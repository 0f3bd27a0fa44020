import { createInterface, type Interface } from 'node:readline/promises';

/** The user pressed Ctrl+C at a question. */
export class CancelledError extends Error {
  override name = 'CancelledError';
}

/** The input ended (Ctrl+D, or piped answers ran out) before this question was answered. */
export class InputEndedError extends Error {
  override name = 'InputEndedError';
  constructor(readonly question: string) {
    super(`the input ended before the question "${question}" was answered`);
  }
}

/** A choice of {@link Prompter.select}. */
export interface Choice<T extends string> {
  name: T;
  hint: string;
}

/**
 * Asks questions and reads answers a line at a time: typed on a terminal, or piped (one answer
 * per line), which is how scripts and tests answer. An empty answer takes the default.
 */
export class Prompter {
  readonly #rl: Interface;
  readonly #lines: AsyncIterator<string>;
  readonly #echo: boolean;
  readonly #input: NodeJS.ReadableStream;
  readonly #terminal: boolean;
  #cancelled = false;

  constructor(
    input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    terminal: boolean,
  ) {
    // No history: on a terminal, ↑/↓ choose among a question's choices instead of recalling
    // earlier answers.
    this.#rl = createInterface({ input, output, terminal, historySize: 0 });
    this.#input = input;
    this.#terminal = terminal;
    // Lines that arrive before their question is asked (piped input) wait here, in order.
    this.#lines = this.#rl[Symbol.asyncIterator]();
    // A terminal echoes what is typed; piped answers are echoed so the transcript reads alike.
    this.#echo = !terminal;
    this.#rl.on('SIGINT', () => {
      this.#cancelled = true;
      this.#rl.close();
    });
  }

  /** A free-text answer, asked again until `check` finds no problem with it. */
  async text(
    question: string,
    initial: string,
    check: (answer: string) => string | undefined,
  ): Promise<string> {
    for (;;) {
      const answer = (await this.#ask(`${question} (${initial}) `, question)) || initial;
      const problem = check(answer);
      if (problem === undefined) return answer;
      this.output.write(`  ${problem}\n`);
    }
  }

  /**
   * One of `choices`, by number or by name; on a terminal ↑ and ↓ also cycle through them,
   * writing the choice's name as the answer (Enter takes it).
   */
  async select<T extends string>(
    question: string,
    choices: readonly Choice<T>[],
    initial: T,
  ): Promise<T> {
    const width = Math.max(...choices.map((choice) => choice.name.length));
    const list = choices.map(
      (choice, i) => `  ${i + 1}) ${choice.name.padEnd(width)}  ${choice.hint}\n`,
    );
    this.output.write(`${question}\n${list.join('')}`);
    const how = this.#terminal
      ? `Choose with ↑/↓, 1-${choices.length} or a name`
      : `Choose 1-${choices.length} or a name`;
    let at = Math.max(
      0,
      choices.findIndex((choice) => choice.name === initial),
    );
    const onKey = (_text: string | undefined, key: { name?: string } | undefined) => {
      if (key?.name !== 'up' && key?.name !== 'down') return;
      at = (at + (key.name === 'up' ? choices.length - 1 : 1)) % choices.length;
      // Replace whatever is typed on the line with the choice's name.
      this.#rl.write(null, { ctrl: true, name: 'e' });
      this.#rl.write(null, { ctrl: true, name: 'u' });
      this.#rl.write(choices[at].name);
    };
    if (this.#terminal) this.#input.on('keypress', onKey);
    try {
      for (;;) {
        const answer = (await this.#ask(`${how} (${initial}) `, question)) || initial;
        const chosen =
          choices[Number(answer) - 1] ?? choices.find((choice) => choice.name === answer);
        if (chosen) return chosen.name;
        this.output.write(`  "${answer}" is not one of the choices\n`);
      }
    } finally {
      this.#input.off('keypress', onKey);
    }
  }

  /** Yes or no. */
  async confirm(question: string, initial: boolean): Promise<boolean> {
    for (;;) {
      const answer = (
        await this.#ask(`${question} (${initial ? 'Y/n' : 'y/N'}) `, question)
      ).toLowerCase();
      if (answer === '') return initial;
      if (answer === 'y' || answer === 'yes') return true;
      if (answer === 'n' || answer === 'no') return false;
      this.output.write('  answer y or n\n');
    }
  }

  /** Gives the input back (before anything else, e.g. an install, reads it). */
  close(): void {
    this.#rl.close();
  }

  /** Shows `prompt` and waits for a line; `question` names it if the input ends first. */
  async #ask(prompt: string, question: string): Promise<string> {
    this.#rl.setPrompt(prompt);
    this.#rl.prompt();
    const next = await this.#lines.next();
    if (this.#cancelled) throw new CancelledError('cancelled');
    if (next.done) {
      this.output.write('\n');
      throw new InputEndedError(question.replace(/:$/, ''));
    }
    if (this.#echo) this.output.write(`${next.value}\n`);
    return next.value.trim();
  }
}
