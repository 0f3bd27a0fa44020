// The golden corpus: one decorated method per type form the extractor handles. Its schemas are
// compared with golden/forms.json, under legacy and standard decorators alike.
import { Prompt, Resource, Tool, type Context, type TextContent } from '@mcp-fw/core';

export enum Colour {
  Red = 'red',
  Green = 'green',
}

export enum Level {
  Low = 1,
  High = 2,
}

/** A point on the map. */
export interface Point {
  /** Degrees north. @minimum -90 @maximum 90 */
  lat: number;
  /**
   * Degrees east.
   * @minimum -180
   * @maximum 180
   */
  lon: number;
  /** @deprecated use lat/lon */
  label?: string;
}

export type Address = {
  street: string;
  /** Postal code. @pattern ^[0-9]{5}$ @example "20500" */
  zip: string;
  location: Point;
};

export interface Page<T> {
  items: T[];
  next: string | null;
}

export interface Tree {
  value: number;
  children: Tree[];
}

/** @minLength 2 @maxLength 2 */
export type StateCode = string;

interface Named {
  name: string;
}
interface Aged {
  age: number;
}

export interface Summary {
  count: number;
  /** When it was computed. */
  at: Date;
}

export class Forms {
  /**
   * Primitives.
   * @param text What to repeat
   */
  @Tool()
  primitives(/** not used: @param wins */ text: string, count: number, flag: boolean): string {
    return `${text}${count}${flag}`;
  }

  /**
   * Optional and defaulted parameters.
   * @param units The unit system
   */
  @Tool()
  optionals(
    query: string,
    limit?: number,
    units = 'metric',
    offset = -1,
    strict = false,
    tags: string[] = [],
  ): string {
    return `${query}${limit}${units}${offset}${strict}${tags}`;
  }

  @Tool()
  literals(mode: 'fast' | 'slow', one: 1, yes: true, level: 1 | 2 | 3): string {
    return `${mode}${one}${yes}${level}`;
  }

  @Tool()
  enums(colour: Colour, level: Level): string {
    return `${colour}${level}`;
  }

  @Tool()
  unions(
    id: string | number,
    maybe: string | null,
    shape: Point | Address,
    either?: boolean | 'auto',
  ): string {
    return `${id}${maybe}${JSON.stringify(shape)}${either}`;
  }

  @Tool()
  intersection(person: Named & Aged): string {
    return person.name;
  }

  @Tool()
  arrays(names: string[], matrix: readonly number[][], points: Array<Point>): string {
    return `${names}${matrix}${points.length}`;
  }

  @Tool()
  tuples(pair: [string, number], optional: [number, number?], rest: [string, ...number[]]): string {
    return `${pair}${optional}${rest}`;
  }

  @Tool()
  records(
    scores: Record<string, number>,
    flags: { [name: string]: boolean },
    fixed: Record<'a' | 'b', string>,
  ): string {
    return `${JSON.stringify(scores)}${JSON.stringify(flags)}${fixed.a}`;
  }

  @Tool()
  objects(point: Point, address: Address, inline: { a: number; nested: { b?: string } }): string {
    return `${point.lat}${address.zip}${inline.a}`;
  }

  @Tool()
  dates(
    when: Date,
    range?: { from: Date; to: Date },
    until?: Date | null,
    either?: Date | string,
  ): string {
    return `${when}${range}${until}${either}`;
  }

  @Tool()
  generics(page: Page<Point>, names: Page<string>): string {
    return `${page.items.length}${names.next}`;
  }

  @Tool()
  recursive(tree: Tree): string {
    return String(tree.value);
  }

  /**
   * Alias tags apply where the alias is used.
   * @param state Two-letter US state code (e.g. CA, NY)
   */
  @Tool()
  aliases(state: StateCode): string {
    return state;
  }

  /** The context parameter is not an argument. */
  @Tool()
  context(city: string, ctx: Context): string {
    return `${city}${ctx.requestId}`;
  }

  /** One destructured parameter is the arguments object. */
  @Tool()
  destructured({ a, b = 2 }: { a: number; b?: number }, ctx: Context): number {
    return a + b + (ctx ? 0 : 1);
  }

  /** A type from a global type package (@types/node), which the first pass leaves out. */
  @Tool()
  globalTypes(os: NodeJS.Platform): string {
    return os;
  }

  @Tool()
  noArguments(): string {
    return 'none';
  }

  /** An object result has an output schema. */
  @Tool()
  async output(point: Point): Promise<Summary> {
    return { count: point.lat, at: new Date(0) };
  }

  @Tool()
  async outputVoid(): Promise<void> {}

  @Tool()
  outputContent(): TextContent {
    return { type: 'text', text: 'hi' };
  }

  @Tool({ description: 'The decorator wins over JSDoc' })
  /** Ignored summary. */
  explicitDescription(x: number): number {
    return x;
  }

  /** A prompt's arguments come from its parameters too. */
  @Prompt()
  review(code: string, language?: string): string {
    return `${language}${code}`;
  }

  @Resource('forms://static')
  staticResource(): string {
    return 'static';
  }

  /** A template's variables. */
  @Resource('forms://items/{id}')
  templated(id: string): string {
    return id;
  }
}
