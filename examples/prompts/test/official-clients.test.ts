import { describe, expect, it } from 'vitest';
import {
  LEGACY_REVISIONS,
  negotiatedVersion,
  OFFICIAL_CLIENTS,
  officialClientPerTest,
} from '../../../packages/core/test/support/official-clients.ts';
import { checkServerLines } from '../../../packages/core/test/support/wire-log.ts';
import { STYLE_GUIDE } from '../src/style-guide.ts';

const connect = officialClientPerTest();

const ARGUMENTS = {
  'git-commit': [
    { name: 'changes', description: 'The diff, or a description of the changes', required: true },
  ],
  'explain-code': [
    { name: 'code', description: 'The code to explain', required: true },
    { name: 'language', description: 'The programming language, e.g. typescript', required: false },
  ],
  'review-code': [{ name: 'code', description: 'The code to review', required: true }],
};

/** `prompts/list` as each revision carries it: `title` exists from 2025-06-18. */
function expectedPrompts(revision: string) {
  const titled = revision >= '2025-06-18';
  return [
    ['git-commit', 'Commit message', 'Writes a Conventional Commits message for a set of changes'],
    ['explain-code', 'Explain code', 'Explains how a piece of code works, step by step'],
    [
      'review-code',
      'Review code',
      'Reviews code against the team style guide (a conversation with the guide embedded)',
    ],
  ].map(([name, title, description]) => ({
    name,
    ...(titled ? { title } : {}),
    description,
    arguments: ARGUMENTS[name as keyof typeof ARGUMENTS],
  }));
}

describe.each(OFFICIAL_CLIENTS)('prompts with %s over stdio', (kind) => {
  it.each(LEGACY_REVISIONS)(
    '%s: lists, renders and completes prompts; every server message is schema-valid',
    async (revision) => {
      const client = await connect(kind, revision, 'examples/prompts');
      const raw = client.raw;

      expect((await raw.listPrompts()).prompts).toEqual(expectedPrompts(revision));

      expect(
        await raw.getPrompt({ name: 'git-commit', arguments: { changes: 'fix: typo in README' } }),
      ).toEqual({
        description: 'Writes a Conventional Commits message for a set of changes',
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: [
                'Write a commit message for the changes below, in the Conventional Commits format:',
                'a subject of at most 72 characters, a blank line, then a body that explains why.',
                '',
                'fix: typo in README',
              ].join('\n'),
            },
          },
        ],
      });
      const explain = (args: Record<string, string>) =>
        raw.getPrompt({ name: 'explain-code', arguments: args });
      expect((await explain({ code: 'x => x * 2', language: 'javascript' })).messages).toEqual([
        {
          role: 'user',
          content: {
            type: 'text',
            text: 'Explain how this javascript code works, step by step:\n\nx => x * 2',
          },
        },
      ]);
      expect((await explain({ code: 'SELECT 1' })).messages).toEqual([
        {
          role: 'user',
          content: { type: 'text', text: 'Explain how this code works, step by step:\n\nSELECT 1' },
        },
      ]);
      expect(
        await raw.getPrompt({ name: 'review-code', arguments: { code: 'let x = 1' } }),
      ).toEqual({
        description:
          'Reviews code against the team style guide (a conversation with the guide embedded)',
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: 'Review code for our team. Our style guide:' },
          },
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: { uri: 'docs://style-guide', mimeType: 'text/markdown', text: STYLE_GUIDE },
            },
          },
          {
            role: 'assistant',
            content: { type: 'text', text: 'Understood. Which code should I review?' },
          },
          { role: 'user', content: { type: 'text', text: 'let x = 1' } },
        ],
      });
      // The embedded resource is also served, so a client can read it on its own.
      expect(await raw.readResource({ uri: 'docs://style-guide' })).toEqual({
        contents: [{ uri: 'docs://style-guide', mimeType: 'text/markdown', text: STYLE_GUIDE }],
      });

      await expect(explain({ language: 'go' })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining(
          'Invalid arguments for prompt explain-code: code: is required',
        ),
      });
      await expect(raw.getPrompt({ name: 'git-commit', arguments: {} })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining(
          'Invalid arguments for prompt git-commit: changes: is required',
        ),
      });

      // The `completions` capability exists from 2025-03-26; the method itself from 2024-11-05.
      // Tools are declared too though the example has none: any server may gain members later.
      const completions = revision >= '2025-03-26' ? { completions: {} } : {};
      expect(raw.getServerCapabilities()).toEqual({
        logging: {},
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        ...completions,
      });
      const complete = (value: string) =>
        raw.complete({
          ref: { type: 'ref/prompt', name: 'explain-code' },
          argument: { name: 'language', value },
        });
      expect(await complete('j')).toEqual({
        completion: { values: ['java', 'javascript'], total: 2, hasMore: false },
      });
      expect(await complete('C')).toEqual({
        completion: { values: ['c', 'cpp', 'csharp'], total: 3, hasMore: false },
      });
      expect(await complete('zig')).toEqual({
        completion: { values: [], total: 0, hasMore: false },
      });
      // Only `language` has a completer.
      expect(
        await raw.complete({
          ref: { type: 'ref/prompt', name: 'explain-code' },
          argument: { name: 'code', value: 'x' },
        }),
      ).toEqual({ completion: { values: [] } });

      const wire = client.wire();
      expect(negotiatedVersion(wire)).toBe(revision);
      expect(checkServerLines(wire, revision)).toEqual([]);
    },
  );
});
