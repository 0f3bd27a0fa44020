import { embeddedResource, Prompt, type PromptMessage } from '@mcp-fw/core';
import { z } from 'zod';
import { LANGUAGES } from './languages.js';
import { STYLE_GUIDE, STYLE_GUIDE_URI } from './style-guide.js';

const CommitInput = z.object({
  changes: z.string().describe('The diff, or a description of the changes'),
});
const ExplainInput = z.object({
  code: z.string().describe('The code to explain'),
  language: z.string().optional().describe('The programming language, e.g. typescript'),
});
const ReviewInput = z.object({ code: z.string().describe('The code to review') });

/** The classic prompts a coding assistant offers as slash commands. */
export class DevPrompts {
  @Prompt({
    name: 'git-commit',
    title: 'Commit message',
    description: 'Writes a Conventional Commits message for a set of changes',
    input: CommitInput,
  })
  gitCommit({ changes }: z.infer<typeof CommitInput>): string {
    return [
      'Write a commit message for the changes below, in the Conventional Commits format:',
      'a subject of at most 72 characters, a blank line, then a body that explains why.',
      '',
      changes,
    ].join('\n');
  }

  @Prompt({
    name: 'explain-code',
    title: 'Explain code',
    description: 'Explains how a piece of code works, step by step',
    input: ExplainInput,
    complete: { language: LANGUAGES },
  })
  explainCode({ code, language }: z.infer<typeof ExplainInput>): string {
    const what = language ? `this ${language} code` : 'this code';
    return `Explain how ${what} works, step by step:\n\n${code}`;
  }

  @Prompt({
    name: 'review-code',
    title: 'Review code',
    description:
      'Reviews code against the team style guide (a conversation with the guide embedded)',
    input: ReviewInput,
  })
  reviewCode({ code }: z.infer<typeof ReviewInput>): PromptMessage[] {
    return [
      {
        role: 'user',
        content: { type: 'text', text: 'Review code for our team. Our style guide:' },
      },
      {
        role: 'user',
        content: embeddedResource({
          uri: STYLE_GUIDE_URI,
          mimeType: 'text/markdown',
          text: STYLE_GUIDE,
        }),
      },
      {
        role: 'assistant',
        content: { type: 'text', text: 'Understood. Which code should I review?' },
      },
      { role: 'user', content: { type: 'text', text: code } },
    ];
  }
}
