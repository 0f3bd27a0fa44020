import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { McpFwServer } from '@mcp-fw/core';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { CliError } from '../output/cli-error.js';

/** The `$schema` of the `server.json` written, and the schema it is checked against. */
export const SERVER_JSON_SCHEMA =
  'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
// Vendored byte for byte (vendor/registry-server-json/SOURCE.md names its source commit).
const SCHEMA_FILE = new URL(
  '../../vendor/registry-server-json/server.schema.json',
  import.meta.url,
);

/** What `mcp-fw publish` is told beside the server and its package.json. */
export interface PublishInputs {
  /** The package.json of the project (npm package `name`, `version`, `mcpName`). */
  readonly packageJson: Record<string, unknown>;
  /** Streamable HTTP URLs (templates allowed: `https://{tenant}.example.com/mcp`). */
  readonly remotes: readonly string[];
  /** An MCP bundle: its release URL and the file, whose SHA-256 is written. */
  readonly mcpb?: { readonly url: string; readonly file: string };
  /** Leave the npm package out (a remote-only server). */
  readonly npm: boolean;
}

/** The `server.json` of `server` for the MCP registry, checked against the 2025-12-11 schema. */
export function serverJson(server: McpFwServer, inputs: PublishInputs): Record<string, unknown> {
  const card = server.serverCard;
  if (!card)
    throw new CliError(
      'The server has no registryName or no description, which server.json requires',
      'Add both to createServer: registryName: "io.github.<you>/<server>" (reverse-DNS, one slash) and a description of at most 100 characters.',
    );
  const environmentVariables = Object.entries(server.settings).map(([name, setting]) => ({
    name,
    description: setting.description,
    isRequired: setting.required ?? true,
    isSecret: setting.secret ?? false,
    ...(setting.default !== undefined && { default: setting.default }),
  }));
  const env = environmentVariables.length ? { environmentVariables } : {};
  const packages: Record<string, unknown>[] = [];
  if (inputs.npm)
    packages.push({ ...npmPackage(card.name, card.version, inputs.packageJson), ...env });
  if (inputs.mcpb) {
    packages.push({
      registryType: 'mcpb',
      identifier: inputs.mcpb.url,
      version: card.version,
      fileSha256: createHash('sha256').update(readFileSync(inputs.mcpb.file)).digest('hex'),
      transport: { type: 'stdio' },
      ...env,
    });
  }
  const remotes = inputs.remotes.map((url) => {
    const names = [...url.matchAll(/\{([a-zA-Z_]\w*)\}/g)].map((m) => m[1]!);
    const variables = Object.fromEntries(
      names.map((name) => [
        name,
        { description: `The ${name} of your deployment`, isRequired: true },
      ]),
    );
    return { type: 'streamable-http', url, ...(names.length && { variables }) };
  });
  if (packages.length === 0 && remotes.length === 0)
    throw new CliError(
      'server.json would list no way to run or reach the server',
      'Keep the npm package (drop --no-npm), give --mcpb <url> --mcpb-file <file>, or --remote <url>.',
    );
  const document = {
    $schema: SERVER_JSON_SCHEMA,
    name: card.name,
    description: card.description,
    version: card.version,
    ...(card.title !== undefined && { title: card.title }),
    ...(card.websiteUrl !== undefined && { websiteUrl: card.websiteUrl }),
    ...(card.repository !== undefined && { repository: card.repository }),
    ...(card.icons?.length && { icons: card.icons }),
    ...(packages.length && { packages }),
    ...(remotes.length && { remotes }),
  };
  const problems = validate(document);
  if (problems.length)
    throw new CliError(
      `server.json does not validate against the registry's 2025-12-11 schema:\n  ${problems.join('\n  ')}`,
      'Fix the server metadata (createServer) or the flags the message names.',
    );
  return document;
}

/** The npm package entry; the registry checks that the package's `mcpName` is the server's name. */
function npmPackage(name: string, version: string, pkg: Record<string, unknown>) {
  if (typeof pkg.name !== 'string' || pkg.private === true)
    throw new CliError(
      'package.json names no publishable npm package (no "name", or "private": true)',
      'Give it a "name" and remove "private", or pass --no-npm for a server published only as a remote or a bundle.',
    );
  if (pkg.mcpName !== name)
    throw new CliError(
      `package.json has ${pkg.mcpName === undefined ? 'no "mcpName"' : `"mcpName": ${JSON.stringify(pkg.mcpName)}`}; the registry checks that it equals the server's registryName "${name}"`,
      `Add "mcpName": "${name}" to package.json and publish that version to npm first.`,
    );
  if (pkg.version !== version)
    throw new CliError(
      `package.json's version ${JSON.stringify(pkg.version)} differs from the server's version "${version}"`,
      'Give createServer the package version (read it from package.json), so server.json names the npm version that exists.',
    );
  return {
    registryType: 'npm',
    registryBaseUrl: 'https://registry.npmjs.org',
    identifier: pkg.name,
    version,
    transport: { type: 'stdio' },
  };
}

let compiled: ValidateFunction | undefined;

/** The schema's complaints about `document`, one line each (empty: valid). */
export function validate(document: unknown): string[] {
  if (!compiled) {
    const ajv = new Ajv({ strict: false, allErrors: true });
    (addFormats as unknown as { default: (a: Ajv) => void }).default(ajv);
    compiled = ajv.compile(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')));
  }
  if (compiled(document)) return [];
  return (compiled.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`);
}
