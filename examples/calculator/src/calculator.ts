import { Tool, UserError } from '@mcp-fw/core';
import { z } from 'zod';

const Operands = z.object({
  a: z.number().describe('The first operand'),
  b: z.number().describe('The second operand'),
});
type Operands = z.infer<typeof Operands>;

const Calculation = z.object({
  result: z.number().describe('The value of the expression'),
  expression: z.string().describe('The expression that was evaluated'),
});
type Calculation = z.infer<typeof Calculation>;

const pure = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

/** Arithmetic with zod input and output schemas: every result is structured output. */
export class Calculator {
  @Tool({
    title: 'Add',
    description: 'Adds two numbers',
    input: Operands,
    output: Calculation,
    annotations: pure,
  })
  add({ a, b }: Operands): Calculation {
    return { result: a + b, expression: `${a} + ${b}` };
  }

  @Tool({
    title: 'Subtract',
    description: 'Subtracts b from a',
    input: Operands,
    output: Calculation,
    annotations: pure,
  })
  subtract({ a, b }: Operands): Calculation {
    return { result: a - b, expression: `${a} - ${b}` };
  }

  @Tool({
    title: 'Multiply',
    description: 'Multiplies two numbers',
    input: Operands,
    output: Calculation,
    annotations: pure,
  })
  multiply({ a, b }: Operands): Calculation {
    return { result: a * b, expression: `${a} * ${b}` };
  }

  @Tool({
    title: 'Divide',
    description: 'Divides a by b',
    input: Operands,
    output: Calculation,
    annotations: pure,
  })
  divide({ a, b }: Operands): Calculation {
    if (b === 0) throw new UserError('Cannot divide by zero: choose a non-zero divisor b');
    return { result: a / b, expression: `${a} / ${b}` };
  }
}
