import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { connectTestClient } from '@mcp-fw/core/testing';
import { describe, expect, it } from 'vitest';
import { generateClasses, writeClasses } from '../src/codegen/index.ts';
import { fromOpenAPI } from '../src/index.ts';
import { typeCheckProject } from './support/type-check.ts';

// GitHub's REST description from npm (@octokit/openapi 23.0.2, api.github.com.json: 13 MB,
// 1,223 operations) at scale, at runtime and generated (tsc over ~5.7 MB of generated code).
// About 40 s of CPU, so it runs in vitest.separate.ts; load time,
// memory and tools/list size are measured by bench/src/openapi-github.ts, not asserted here.
const SPEC = createRequire(import.meta.url).resolve(
  '@octokit/openapi/generated/api.github.com.json',
);

describe("GitHub's REST OpenAPI description", () => {
  it('loads and yields one tool per operation, each with a valid name and an object input schema', async () => {
    const doc = JSON.parse(readFileSync(SPEC, 'utf8')) as { paths: Record<string, object> };
    const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
    const operations = Object.values(doc.paths).flatMap((item) =>
      Object.keys(item).filter((k) => methods.includes(k)),
    ).length;
    expect(operations).toBeGreaterThan(1000);

    const client = await connectTestClient(
      await fromOpenAPI(SPEC, { baseUrl: 'https://api.github.com' }),
    );
    const { tools } = await client.listTools();
    await client.close();
    expect(tools).toHaveLength(operations);
    expect(new Set(tools.map((t) => t.name)).size).toBe(operations);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(tool.inputSchema.type).toBe('object');
      // The default maxOutputSchemaBytes (16 KiB) bounds every declared output schema.
      if (tool.outputSchema)
        expect(JSON.stringify(tool.outputSchema).length).toBeLessThanOrEqual(16 * 1024);
    }
    const issues = tools.find((t) => t.name === 'issues_create');
    expect(issues?.inputSchema.required).toEqual(
      expect.arrayContaining(['owner', 'repo', 'title']),
    );
  }, 600_000);

  it('generates classes for every operation, and the generated project type-checks', async () => {
    // Inside the package, so the project resolves @mcp-fw/core and @mcp-fw/openapi (built).
    const root = join(import.meta.dirname, `.codegen-github-${process.pid}`);
    try {
      const files = await generateClasses(SPEC);
      writeClasses(join(root, 'src', 'api'), files);
      const client = files.find((f) => f.path === 'client.gen.ts')?.text ?? '';
      // One ApiClient method per operation, each sending through the shared request layer.
      expect(client.split('this.#client.call(').length - 1).toBeGreaterThan(1000);
      mkdirSync(root, { recursive: true });
      const tsc = typeCheckProject(root);
      expect(tsc.output).toBe('');
      expect(tsc.status).toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 180_000);
});
