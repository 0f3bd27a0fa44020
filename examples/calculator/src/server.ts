import { createServer } from '@mcp-fw/core';
import { Calculator } from './calculator.js';

export const server = createServer({
  name: 'calculator',
  version: '0.1.0',
  instructions: 'Arithmetic on two numbers. Every tool returns { result, expression }.',
  providers: [Calculator],
});
