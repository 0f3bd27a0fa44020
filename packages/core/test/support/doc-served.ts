import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect } from 'vitest';
import {
  type DocBlock,
  type DocWorkspace,
  declaredPrompts,
  declaredResources,
  declaredTools,
  emitted,
  shown,
  stdioRunner,
} from './doc-blocks.ts';

/**
 * Starts a server block over stdio and checks with the official client that it serves what its
 * code declares: its tools (all of them, unless it adds some at runtime), prompts, resource
 * templates and readable resources. Used by the README and the documentation site tests alike.
 */
export async function expectServesWhatItDeclares(
  workspace: DocWorkspace,
  block: DocBlock,
): Promise<void> {
  const file =
    block.kind === 'server-module' ? stdioRunner(workspace, block) : emitted(workspace, block);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [file],
    cwd: workspace.programs,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'doc-test', version: '1.0.0' });
  try {
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toEqual(expect.any(String));
    const declared = declaredTools(block.code);
    if (declared.length) {
      const listed = (await client.listTools()).tools.map((t) => t.name);
      expect(listed.length).toBeGreaterThan(0);
      expect(declared).toEqual(expect.arrayContaining(listed));
      if (!/\.add\(/.test(block.code)) expect(listed.sort()).toEqual([...declared].sort());
    }
    const prompts = declaredPrompts(block.code);
    if (prompts.length)
      expect((await client.listPrompts()).prompts.map((p) => p.name).sort()).toEqual(
        [...prompts].sort(),
      );
    const resources = declaredResources(block.code);
    if (resources.length) {
      const listed = (await client.listResources()).resources.map((r) => r.uri);
      const templates = (await client.listResourceTemplates()).resourceTemplates.map(
        (t) => t.uriTemplate,
      );
      expect(templates.sort()).toEqual(resources.filter((uri) => uri.includes('{')).sort());
      for (const uri of resources.filter((u) => !u.includes('{'))) {
        expect(listed).toContain(uri);
        expect((await client.readResource({ uri })).contents.length).toBeGreaterThan(0);
      }
    }
  } catch (error) {
    throw new Error(`${block.where} (${shown(file)}) did not serve: ${error}\n${stderr}`);
  } finally {
    await client.close();
  }
}
