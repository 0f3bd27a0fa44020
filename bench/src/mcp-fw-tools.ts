// The mcp-fw benchmark server, shared by the stdio and HTTP servers so both serve the same code.
import { createServer, Tool, type McpFwServer, type Provider } from '@mcp-fw/core';
import { z } from 'zod';
import {
  ADD_DESCRIPTION,
  ECHO_DESCRIPTION,
  extraToolCount,
  extraToolDescription,
  extraToolName,
  SERVER_NAME,
  SERVER_VERSION,
} from './workload.js';

const Operands = z.object({ a: z.number(), b: z.number() });
const EchoInput = z.object({ text: z.string() });
const ExtraInput = z.object({ value: z.string().optional() });

class BenchTools {
  @Tool({ description: ADD_DESCRIPTION, input: Operands })
  add({ a, b }: z.infer<typeof Operands>): string {
    return String(a + b);
  }

  @Tool({ description: ECHO_DESCRIPTION, input: EchoInput })
  echo({ text }: z.infer<typeof EchoInput>): string {
    return text;
  }
}

/** N trivial tools, decorated by hand (legacy form) because they only exist at run time. */
function extraTools(count: number): Provider {
  // The methods are put on a plain object that then becomes the prototype: V8 makes adding a
  // property to an object that already is a prototype slow (it invalidates what it inferred
  // from the prototype), and a thousand of them would be charged to the framework's startup.
  const proto: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) proto[extraToolName(i)] = () => 'ok';
  function ExtraTools(): void {}
  ExtraTools.prototype = proto;
  Object.defineProperty(proto, 'constructor', {
    value: ExtraTools,
    writable: true,
    configurable: true,
  });
  for (let i = 0; i < count; i++) {
    const key = extraToolName(i);
    const tool = Tool({ name: key, description: extraToolDescription(i), input: ExtraInput });
    tool(proto, key, Object.getOwnPropertyDescriptor(proto, key));
  }
  return ExtraTools as unknown as Provider;
}

export function benchServer(): McpFwServer {
  const count = extraToolCount();
  return createServer({
    name: SERVER_NAME,
    version: SERVER_VERSION,
    providers: count > 0 ? [BenchTools, extraTools(count)] : [BenchTools],
  });
}
