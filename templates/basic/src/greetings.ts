import { Prompt, Resource, Tool } from '@mcp-fw/core';
import { z } from 'zod';

/** How to say hello, by language. */
export const HELLO = { en: 'Hello', fr: 'Bonjour', es: 'Hola', de: 'Hallo' } as const;

const GreetInput = z.object({
  name: z.string().min(1).describe('Who to greet'),
  language: z.enum(['en', 'fr', 'es', 'de']).default('en').describe('The language of the greeting'),
});

const IntroduceInput = z.object({
  name: z.string().describe('Who to introduce'),
});

/**
 * One of each: a tool (the model calls it), a resource (the client reads it) and a prompt (the
 * user picks it, e.g. as a slash command). Add methods here, or more classes to `providers`.
 */
export class Greetings {
  @Tool({ description: 'Greets someone by name', input: GreetInput })
  greet({ name, language }: z.infer<typeof GreetInput>): string {
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

  @Prompt({ description: 'Asks for a short, friendly introduction of someone', input: IntroduceInput })
  introduce({ name }: z.infer<typeof IntroduceInput>): string {
    return `Write a short, friendly introduction of ${name}, then greet them with the greet tool.`;
  }
}
