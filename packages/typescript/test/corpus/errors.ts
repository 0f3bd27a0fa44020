// Signatures JSON cannot carry: each must fail extraction with member, parameter, type and fix.
import { Prompt, Resource, Tool, type Context } from '@mcp-fw/core';

class Connection {
  host = 'localhost';
  open(): void {}
}

interface Limits {
  /** @minimum ten */
  n: number;
}

export class Bad {
  @Tool()
  callback(done: () => void): string {
    return String(done);
  }

  @Tool()
  big(amount: bigint): string {
    return String(amount);
  }

  @Tool()
  symbol(key: symbol): string {
    return String(key);
  }

  @Tool()
  instance(connection: Connection): string {
    return connection.host;
  }

  @Tool()
  untyped(value: any, other: unknown): string {
    return String(value) + String(other);
  }

  @Tool()
  nested(options: { retry: { onFail: (n: number) => void } }): string {
    return String(options);
  }

  @Tool()
  map(index: Map<string, number>): string {
    return String(index.size);
  }

  @Tool()
  contextFirst(ctx: Context, city: string): string {
    return city + ctx.requestId;
  }

  @Tool()
  rest(...names: string[]): string {
    return names.join();
  }

  @Tool()
  badTag(limits: Limits): string {
    return String(limits.n);
  }

  @Prompt()
  countedPrompt(count: number): string {
    return String(count);
  }

  @Resource('bad://items/{id}')
  numberedItem(id: number): string {
    return String(id);
  }

  @Tool()
  async returnsInstance(): Promise<Connection> {
    return new Connection();
  }
}
