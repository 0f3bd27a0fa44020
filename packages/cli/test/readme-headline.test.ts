import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main as writeSchemas } from '@mcp-fw/typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli-process.ts';
import { REPO_ROOT } from './support/paths.ts';
import { sourceProject, type TempProject } from './support/temp-project.ts';

// The two examples a visitor sees first in the repository's README, run as the README says.
const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const block = (marker: string): string => {
  const match = new RegExp(`<!-- doc-test: ${marker} -->\\n\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(
    readme,
  );
  if (!match) throw new Error(`README.md has no ts block marked "doc-test: ${marker}"`);
  return match[1];
};

const projects: TempProject[] = [];
afterAll(() => projects.forEach((p) => p.remove()));
const projectOf = (marker: string): TempProject => {
  const made = sourceProject(`readme-${marker.replace(' ', '-')}`, {
    'src/server.ts': block(marker),
  });
  projects.push(made);
  return made;
};

const divideInput = (described: boolean) => ({
  type: 'object',
  properties: {
    a: { type: 'number', ...(described ? { description: 'The dividend' } : {}) },
    b: { type: 'number', ...(described ? { description: 'The divisor, not zero' } : {}) },
  },
  required: ['a', 'b'],
});

describe('the README headline', () => {
  it('plain types: mcp-fw-schemas reads the signature, then call and inspect serve it', async () => {
    const project = projectOf('headline plain');
    const notes: string[] = [];
    expect(writeSchemas(['-p', project.path('tsconfig.json')], (t) => notes.push(t))).toBe(0);
    expect(await runCli(['call', 'src/server.ts', 'divide', 'a=1', 'b=4'], project.dir)).toEqual({
      code: 0,
      stdout: '{"result":0.25}\n',
      stderr: '',
    });
    const inspected = await runCli(['inspect', 'src/server.ts', '--json'], project.dir);
    expect(inspected.code, inspected.stderr).toBe(0);
    const divide = JSON.parse(inspected.stdout).tools.find(
      (t: { name: string }) => t.name === 'divide',
    );
    expect(divide.description).toBe('Divides a by b');
    expect(divide.inputSchema).toMatchObject(divideInput(true));
    expect(divide.outputSchema).toMatchObject({
      type: 'object',
      properties: { result: { type: 'number' } },
      required: ['result'],
    });
  });

  it('zod: the same tool, the same answer, no generation step', async () => {
    const project = projectOf('headline zod');
    expect(await runCli(['call', 'src/server.ts', 'divide', 'a=1', 'b=4'], project.dir)).toEqual({
      code: 0,
      stdout: '{"result":0.25}\n',
      stderr: '',
    });
    const refused = await runCli(['call', 'src/server.ts', 'divide', 'a=1', 'b=0'], project.dir);
    expect(refused.stdout + refused.stderr).toContain('Cannot divide by zero');
  });
});
