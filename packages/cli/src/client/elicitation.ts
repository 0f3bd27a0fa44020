import { readFileSync } from 'node:fs';
import { JsonRpcCode, JsonRpcError } from '@mcp-fw/core/transport';
import { CliError } from '../output/cli-error.js';

/** An `elicitation/create` request's form: the message and the flat object schema it asks for. */
export interface ElicitationForm {
  readonly message: string;
  readonly requestedSchema: {
    properties?: Record<string, FieldSchema>;
    required?: readonly string[];
  };
}

/** One field of a requested schema (the primitive types elicitation allows). */
export interface FieldSchema {
  readonly type?: string;
  readonly title?: string;
  readonly description?: string;
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
}

/** The client's answer to one elicitation. */
export type ElicitationResult =
  | { action: 'accept'; content: Record<string, unknown> }
  | { action: 'decline' | 'cancel' };

/** Asks a person for a form's fields (on a terminal); undefined when they cancel. */
export type FormAsker = (form: ElicitationForm) => Promise<Record<string, unknown> | undefined>;

/**
 * Answers a tool's elicitations for `mcp-fw call`: from `--answers`/`--answers-file` (one object,
 * or a list answering the questions in order), else by asking on a terminal, else not at all
 * (the question is cancelled and remembered, so the command can say how to answer it).
 */
export class ElicitationAnswers {
  readonly #given: Record<string, unknown>[] | undefined;
  readonly #ask: FormAsker | undefined;
  /** Questions nobody could answer. */
  readonly unanswered: ElicitationForm[] = [];

  constructor(given: Record<string, unknown>[] | undefined, ask: FormAsker | undefined) {
    this.#given = given;
    this.#ask = ask;
  }

  /** Answers one `elicitation/create` request. */
  async answer(params: Record<string, unknown> | undefined): Promise<ElicitationResult> {
    if (params?.mode === 'url')
      throw new JsonRpcError(
        JsonRpcCode.InvalidParams,
        'mcp-fw call answers form elicitations only',
      );
    const form = params as unknown as ElicitationForm;
    if (this.#given) {
      // A single object answers every question; a list answers them in order.
      const content = this.#given.length > 1 ? this.#given.shift() : this.#given[0];
      if (content) return { action: 'accept', content };
    }
    if (this.#ask) {
      const content = await this.#ask(form);
      return content ? { action: 'accept', content } : { action: 'cancel' };
    }
    this.unanswered.push(form);
    return { action: 'cancel' };
  }
}

/** Reads `--answers` or `--answers-file` (not both) as a list of answer objects. */
export function givenAnswers(
  json: string | undefined,
  file: string | undefined,
): Record<string, unknown>[] | undefined {
  if (json !== undefined && file !== undefined)
    throw new CliError(
      '--answers and --answers-file cannot be combined.',
      'Pass the answers one way.',
    );
  const source = json !== undefined ? '--answers' : '--answers-file';
  let text = json;
  if (file !== undefined) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new CliError(
        `--answers-file ${file} cannot be read: ${(error as Error).message}.`,
        'Pass a JSON file that exists.',
      );
    }
  }
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `${source} is not valid JSON: ${(error as Error).message}.`,
      `Give an object, e.g. --answers '{"confirm": true}'.`,
    );
  }
  const list = Array.isArray(value) ? value : [value];
  if (
    list.length === 0 ||
    list.some((item) => typeof item !== 'object' || item === null || Array.isArray(item))
  ) {
    throw new CliError(
      `${source} must be a JSON object, or a list of objects (one per question).`,
      `Give an object, e.g. --answers '{"confirm": true}'.`,
    );
  }
  return list as Record<string, unknown>[];
}

/**
 * The error for questions nobody could answer: what was asked, and an `--answers` example
 * built from the requested schema.
 */
export function unansweredError(tool: string, forms: readonly ElicitationForm[]): CliError {
  const asked = forms.map(
    (form) =>
      `"${form.message}" (${Object.keys(form.requestedSchema.properties ?? {}).join(', ') || 'no fields'})`,
  );
  const examples = forms.map((form) => exampleAnswer(form));
  const example = JSON.stringify(examples.length === 1 ? examples[0] : examples);
  return new CliError(
    `${tool} asked for input (${asked.join('; ')}), but stdin is not a terminal, so nobody could answer and ${forms.length === 1 ? 'the question was' : 'the questions were'} cancelled.`,
    `Pass the answers with --answers '${example}' (or --answers-file <file.json>; a list answers several questions in order), or run the command in a terminal to be asked.`,
  );
}

/** A plausible answer to a form, for the hint: defaults, else the first choice, else a sample. */
function exampleAnswer(form: ElicitationForm): Record<string, unknown> {
  const answer: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(form.requestedSchema.properties ?? {})) {
    if (field.default !== undefined) answer[name] = field.default;
    else if (field.enum?.length) answer[name] = field.enum[0];
    else if (field.type === 'boolean') answer[name] = true;
    else if (field.type === 'number' || field.type === 'integer') answer[name] = field.minimum ?? 1;
    else answer[name] = '…';
  }
  return answer;
}
