import { relative } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { CliError } from '../output/cli-error.js';
import { runToExit } from '../output/report-error.js';
import { examples } from './options.js';

interface OpenApiOptions {
  out: string;
  name?: Record<string, string>;
  exclude?: string[];
}

/**
 * `mcp-fw openapi <spec> --out src/api`: editable decorated classes from an OpenAPI document,
 * written by @mcp-fw/openapi's generator (this only parses flags and reports).
 */
export function openapiCommand(program: Command): void {
  program
    .command('openapi')
    .description(
      'Generate editable decorated classes from an OpenAPI 3.0/3.1 or Swagger 2.0 document: one class per tag, one @Tool per operation, plain types and JSDoc, and a typed fetch layer',
    )
    .argument('<spec>', 'the document: a file path or an http(s) URL (JSON or YAML)')
    .requiredOption('--out <dir>', 'the folder to write, e.g. src/api')
    .option(
      '--name <operation=name>',
      "a tool's name, by operationId or 'METHOD /path' (repeat for more)",
      parseName,
    )
    .option(
      '--exclude <operation>',
      "leave an operation out, by operationId or 'METHOD /path' (repeat for more)",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addHelpText(
      'after',
      `${examples([
        ['mcp-fw openapi petstore.yaml --out src/api', 'write src/api'],
        ['mcp-fw openapi petstore.yaml --out src/api --name findPets=list_pets', 'name a tool'],
        ["mcp-fw openapi api.json --out src/api --exclude 'DELETE /users/{id}'", 'leave one out'],
      ])}
*.gen.ts files are rewritten on every run; each <tag>.ts subclass is written once and is yours
to edit (override, re-decorate or add tools). Run it again after the document changes.
`,
    )
    .action((spec: string, options: OpenApiOptions) =>
      runToExit(async () => {
        const codegen = await loadCodegen();
        const files = await codegen.generateClasses(spec, {
          names: options.name,
          exclude: options.exclude,
          sourceName: /^https?:\/\//.test(spec)
            ? spec
            : relative(options.out, spec).replaceAll('\\', '/'),
        });
        const report = codegen.writeClasses(options.out, files);
        const line = (what: string, list: readonly string[]) =>
          list.length > 0 ? `  ${what}: ${list.join(', ')}\n` : '';
        process.stderr.write(
          `Wrote ${options.out}\n${line('generated', report.written)}${line('unchanged', report.unchanged)}${line('yours, new', report.created)}${line('yours, kept', report.kept)}${line('removed (tag gone)', report.removed)}`,
        );
        return 0;
      }),
    );
}

function parseName(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.lastIndexOf('=');
  if (at <= 0 || at === value.length - 1)
    throw new InvalidArgumentError(
      "expected operation=name, e.g. findPets=list_pets or 'GET /pets=list_pets'.",
    );
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

/** `@mcp-fw/openapi`, an optional peer of the CLI: only this command needs it. */
async function loadCodegen(): Promise<typeof import('@mcp-fw/openapi/codegen')> {
  try {
    return await import('@mcp-fw/openapi/codegen');
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new CliError(
      'mcp-fw openapi needs the @mcp-fw/openapi package, which is not installed.',
      'Install it in your project: npm install @mcp-fw/openapi',
    );
  }
}
