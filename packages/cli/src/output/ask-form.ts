import { createInterface } from 'node:readline/promises';
import type { ElicitationForm, FieldSchema } from '../client/elicitation.js';
import type { Style } from './style.js';

/**
 * Asks a person, on the terminal, for the fields of an elicitation form (its message first,
 * then one question per field, typed from the requested schema). Resolves with the answers, or
 * undefined when they cancel (Ctrl+C or Ctrl+D). Questions go to stderr: stdout carries the
 * tool's result.
 */
export async function askForm(
  form: ElicitationForm,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  style: Style,
): Promise<Record<string, unknown> | undefined> {
  const rl = createInterface({ input, output, terminal: true, historySize: 0 });
  // Ctrl+C at a question cancels the form, not the command: the tool gets "cancel" and goes on.
  rl.on('SIGINT', () => rl.close());
  const lines = rl[Symbol.asyncIterator]();
  output.write(`${style.bold(form.message)}\n`);
  const required = new Set(form.requestedSchema.required ?? []);
  const answers: Record<string, unknown> = {};
  try {
    for (const [name, field] of Object.entries(form.requestedSchema.properties ?? {})) {
      for (;;) {
        rl.setPrompt(`  ${question(name, field, required.has(name))} `);
        rl.prompt();
        const next = await lines.next();
        if (next.done) {
          output.write('\n');
          return undefined;
        }
        const parsed = parseAnswer(next.value.trim(), field, required.has(name));
        if ('problem' in parsed) {
          output.write(`  ${style.red(parsed.problem)}\n`);
          continue;
        }
        if (parsed.value !== undefined) answers[name] = parsed.value;
        break;
      }
    }
  } finally {
    rl.close();
  }
  return answers;
}

/** `weeks — For how many weeks (1 to 4) [integer, 1-4]:` */
function question(name: string, field: FieldSchema, isRequired: boolean): string {
  const label = field.title ?? name;
  const about = field.description && field.description !== label ? ` — ${field.description}` : '';
  const kind = field.enum
    ? field.enum.map(String).join('/')
    : field.type === 'boolean'
      ? 'y/n'
      : (field.type ?? 'text');
  const range =
    field.minimum !== undefined || field.maximum !== undefined
      ? `, ${field.minimum ?? ''}-${field.maximum ?? ''}`
      : '';
  const fallback =
    field.default !== undefined
      ? `, default ${String(field.default)}`
      : isRequired
        ? ''
        : ', optional';
  return `${label}${about} [${kind}${range}${fallback}]:`;
}

/** Reads one typed answer as the field's type; an empty answer takes the default (or skips). */
function parseAnswer(
  raw: string,
  field: FieldSchema,
  isRequired: boolean,
): { value: unknown } | { problem: string } {
  if (raw === '') {
    if (field.default !== undefined) return { value: field.default };
    return isRequired ? { problem: 'an answer is required' } : { value: undefined };
  }
  if (field.enum) {
    const choice = field.enum.find((option) => String(option) === raw);
    return choice !== undefined
      ? { value: choice }
      : { problem: `choose one of ${field.enum.map(String).join(', ')}` };
  }
  switch (field.type) {
    case 'boolean':
      if (/^(y|yes|true)$/i.test(raw)) return { value: true };
      if (/^(n|no|false)$/i.test(raw)) return { value: false };
      return { problem: 'answer y or n' };
    case 'number':
    case 'integer': {
      const n = Number(raw);
      if (Number.isNaN(n) || (field.type === 'integer' && !Number.isInteger(n)))
        return { problem: `enter ${field.type === 'integer' ? 'a whole number' : 'a number'}` };
      if (
        (field.minimum !== undefined && n < field.minimum) ||
        (field.maximum !== undefined && n > field.maximum)
      ) {
        return {
          problem: `enter a number from ${field.minimum ?? '-∞'} to ${field.maximum ?? '∞'}`,
        };
      }
      return { value: n };
    }
    default:
      return { value: raw };
  }
}
