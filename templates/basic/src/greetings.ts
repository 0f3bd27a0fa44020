import { Prompt, Resource, Tool } from '@mcp-fw/core';

/** How to say hello, by language. */
export const HELLO = { en: 'Hello', fr: 'Bonjour', es: 'Hola', de: 'Hallo' } as const;

/** The language of the greeting. */
export type Language = 'en' | 'fr' | 'es' | 'de';

/** @minLength 1 */
type Name = string;

/**
 * One of each: a tool (the model calls it), a resource (the client reads it) and a prompt (the
 * user picks it, e.g. as a slash command). Add methods here, or more classes to `providers`.
 *
 * The methods are plain TypeScript: their input schemas and descriptions are read from the
 * signatures and JSDoc into src/schemas.gen.ts (`npx mcp-fw-schemas`, which `npm run build` and
 * `npm test` run first, and `npm run dev` on every save).
 */
export class Greetings {
  /**
   * Greets someone by name
   * @param name Who to greet
   * @param language The language of the greeting
   */
  @Tool()
  greet(name: Name, language: Language = 'en'): string {
    return `${HELLO[language]}, ${name}!`;
  }

  @Resource('greetings://languages', {
    title: 'Greeting languages',
    description: 'The languages the greet tool speaks, with their greeting',
    mimeType: 'application/json',
  })
  languages(): string {
    return JSON.stringify(HELLO, null, 2);
  }

  /**
   * Asks for a short, friendly introduction of someone
   * @param name Who to introduce
   */
  @Prompt()
  introduce(name: string): string {
    return `Write a short, friendly introduction of ${name}, then greet them with the greet tool.`;
  }
}
