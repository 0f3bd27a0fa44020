import { dirname, resolve } from 'node:path';
import ts from 'typescript5';
import type { SchemaManifest } from './manifest.js';
import { methodDocWarnings } from './doc-warnings.js';
import { memberSchemas, type DecoratedMethod } from './member-schemas.js';
import { schemaAgreement } from './schema-agreement.js';
import { sourceStamp, type SourceStamp } from './stamp.js';
import { isCoreFile, UnresolvedTypeError, type SchemaOptions } from './type-to-schema.js';

/** Options of {@link extractSchemas}. */
export interface ExtractOptions extends SchemaOptions {
  /** The project's tsconfig.json (default: `tsconfig.json` in the working directory). */
  readonly tsconfig?: string;
}

/** Every signature that cannot become a schema, one line each. */
export class ExtractionError extends Error {
  override name = 'ExtractionError';
  constructor(readonly problems: readonly string[]) {
    super(
      `Cannot derive schemas from the TypeScript types:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
}

const KINDS = { Tool: 'tool', Prompt: 'prompt', Resource: 'resource' } as const;

/**
 * Reads the input and output schemas and descriptions of every `@Tool`, `@Prompt` and
 * `@Resource` method of a project from its TypeScript signatures and JSDoc.
 *
 * @example
 * ```ts
 * import { extractSchemas } from '@mcp-fw/typescript';
 * const schemas = extractSchemas({ tsconfig: 'tsconfig.json' });
 * createServer({ name: 'weather', version: '1.0.0', providers: [Weather], schemas });
 * ```
 */
export function extractSchemas(options: ExtractOptions = {}): SchemaManifest {
  return new SchemaExtractor(options).extract();
}

// A decorator call, in any spelling (`@Tool(`, `@mcp.Tool (`, an alias): files without one
// cannot hold a decorated method, so they are not roots (their imports still come in).
const DECORATOR_CALL = /@[A-Za-z_$][\w$.]*\s*\(/;

/**
 * Extraction that can run again after files change: each run hands the compiler the source
 * files it parsed before unless their text changed, so an edit costs the re-parse of that file
 * and the questions about the signatures (what `mcp-fw dev` needs).
 *
 * @example
 * ```ts
 * const extractor = new SchemaExtractor({ tsconfig: 'tsconfig.json' });
 * writeManifest('src/schemas.gen.ts', extractor.extract());
 * watcher.on('change', () => writeManifest('src/schemas.gen.ts', extractor.extract())); // re-parses the changed file only
 * ```
 */
export class SchemaExtractor {
  readonly #options: ExtractOptions;
  readonly #configPath: string;
  readonly #files = new Map<string, ts.SourceFile>();
  #program: ts.Program | undefined;
  #warnings: string[] = [];

  constructor(options: ExtractOptions = {}) {
    this.#options = options;
    this.#configPath = resolve(options.tsconfig ?? 'tsconfig.json');
  }

  /**
   * The project's own files the last extraction read (types imported with `import type`
   * included, which a compiled import graph no longer shows), for a watcher.
   */
  get sourceFiles(): string[] {
    return (this.#program?.getSourceFiles() ?? [])
      .filter((f) => !f.isDeclarationFile && !f.fileName.includes('/node_modules/'))
      .map((f) => resolve(f.fileName));
  }

  /** The warnings of the last extraction (unknown JSDoc tags, `@param` naming no parameter). */
  get warnings(): readonly string[] {
    return this.#warnings;
  }

  /**
   * What the last extraction read, for a module written at `target`: pass it to
   * `writeManifest(target, manifest, { stamp })`, and `mcp-fw inspect`, `call` and `start` can
   * tell when a source changed after the module was written.
   */
  stamp(target: string): SourceStamp {
    return sourceStamp(target, this.sourceFiles, dirname(this.#configPath));
  }

  /**
   * Checks only that explicit schemas (zod and other Standard Schemas in `input`, `output` and
   * `@Arg`) agree with the handlers' parameter and return types: what `mcp-fw call` and `dev`
   * run for projects that declare their schemas, where TypeScript alone says only TS1241.
   * Returns one line per disagreement, naming the member, the field and both types. With an
   * `entry`, only the files it imports are read.
   */
  checkAgreement(entry?: string): string[] {
    const config = readConfig(this.#configPath);
    // From an entry, only what it imports is checked: what `mcp-fw call` and `dev` will run.
    const roots = entry
      ? [resolve(entry)]
      : config.fileNames.filter((f) => DECORATOR_CALL.test(ts.sys.readFile(f) ?? ''));
    const options = {
      ...config.options,
      noEmit: true,
      incremental: false,
      composite: false,
      declaration: false,
      types: [],
      // Libraries by their declarations, never their sources (a monorepo's source condition):
      // only the project's own signatures are asked about.
      customConditions: [],
    };
    this.#program = ts.createProgram({
      rootNames: roots,
      options,
      host: this.#host(options),
      oldProgram: this.#program,
    });
    try {
      manifestOf(this.#program, { ...this.#options, agreementOnly: true });
      return [];
    } catch (error) {
      if (error instanceof ExtractionError) return [...error.problems];
      throw error;
    }
  }

  /** Extracts the schemas again, re-parsing only the files that changed. */
  extract(): SchemaManifest {
    const config = readConfig(this.#configPath);
    const roots = config.fileNames.filter((f) => DECORATOR_CALL.test(ts.sys.readFile(f) ?? ''));
    // noEmit and no type-check of the whole program: only the decorated signatures are asked about.
    const base = {
      ...config.options,
      noEmit: true,
      incremental: false,
      composite: false,
      declaration: false,
    };
    // Global type packages (@types/node alone is ~100 files) are half the parse time and
    // rarely name a tool's data; the first pass leaves them out and a type it cannot resolve
    // sends it round again with them.
    try {
      return this.#run(roots, { ...base, types: [] }, 'signal');
    } catch (error) {
      if (!(error instanceof UnresolvedTypeError)) throw error;
      return this.#run(roots, base, 'fail');
    }
  }

  #run(
    roots: string[],
    options: ts.CompilerOptions,
    unresolved: 'signal' | 'fail',
  ): SchemaManifest {
    const host = this.#host(options);
    this.#program = ts.createProgram({
      rootNames: roots,
      options,
      host,
      oldProgram: this.#program,
    });
    const warnings: string[] = [];
    const manifest = manifestOf(this.#program, {
      ...this.#options,
      unresolved,
      onWarning: (warning) => warnings.push(warning),
    });
    this.#warnings = warnings;
    for (const warning of warnings) this.#options.onWarning?.(warning);
    return manifest;
  }

  #host(options: ts.CompilerOptions): ts.CompilerHost {
    const host = ts.createCompilerHost(options, true);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, language, onError) => {
      const cached = this.#files.get(fileName);
      // Installed files do not change while a dev session runs; the project's own are compared.
      if (
        cached &&
        (fileName.includes('/node_modules/') || ts.sys.readFile(fileName) === cached.text)
      )
        return cached;
      const file = read(fileName, language, onError);
      if (file) this.#files.set(fileName, file);
      return file;
    };
    return host;
  }
}

function readConfig(path: string): ts.ParsedCommandLine {
  const problems: string[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(path, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) =>
      problems.push(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
  });
  const errors = [
    ...problems,
    ...(parsed?.errors ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
  ];
  if (!parsed || errors.length)
    throw new ExtractionError(errors.length ? errors : [`cannot read ${path}`]);
  return parsed;
}

/** The manifest of a program's root files (not of the libraries it imports). */
export function manifestOf(
  program: ts.Program,
  options: SchemaOptions & { /** @internal */ readonly agreementOnly?: boolean } = {},
): SchemaManifest {
  const checker = program.getTypeChecker();
  const roots = new Set(program.getRootFileNames().map((f) => resolve(f)));
  // The agreement check from an entry reads every project file the entry imports.
  const visited = (file: ts.SourceFile) =>
    options.agreementOnly
      ? !file.fileName.includes('/node_modules/')
      : roots.has(resolve(file.fileName));
  const manifest: SchemaManifest = {};
  const classFiles = new Map<string, string>();
  const problems: string[] = [];
  const warnings: string[] = [];
  const configFile = program.getCompilerOptions().configFilePath;
  const dir =
    typeof configFile === 'string' ? dirname(resolve(configFile)) : program.getCurrentDirectory();
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || !visited(file)) continue;
    visit(file, (node) => {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      const methods = decoratedMethods(checker, node);
      if (methods.length === 0) return;
      const className = node.name.text;
      const other = classFiles.get(className);
      // Only a generated manifest finds schemas by class name; the agreement check has none.
      if (other !== undefined && !options.agreementOnly) {
        problems.push(
          `two classes named ${className} have decorated methods (${other} and ${file.fileName}); the server finds ` +
            'schemas by class name. Fix: rename one of them.',
        );
        return;
      }
      classFiles.set(className, file.fileName);
      const members: SchemaManifest[string] = {};
      for (const method of methods) {
        problems.push(...schemaAgreement(checker, method));
        if (options.agreementOnly) continue;
        warnings.push(...methodDocWarnings(method.node, method.origin, dir));
        try {
          members[(method.node.name as ts.Identifier).text] = memberSchemas(checker, method, {
            ...options,
            onWarning: (warning) => warnings.push(warning),
            member: { origin: method.origin, dir },
          });
        } catch (error) {
          if (error instanceof UnresolvedTypeError) throw error;
          problems.push((error as Error).message);
        }
      }
      manifest[className] = members;
    });
  }
  if (problems.length) throw new ExtractionError(problems);
  for (const warning of new Set(warnings)) options.onWarning?.(warning);
  return manifest;
}

function visit(node: ts.Node, fn: (node: ts.Node) => void): void {
  fn(node);
  ts.forEachChild(node, (child) => visit(child, fn));
}

function decoratedMethods(checker: ts.TypeChecker, node: ts.ClassDeclaration): DecoratedMethod[] {
  const found: DecoratedMethod[] = [];
  for (const member of node.members) {
    if (
      !ts.isMethodDeclaration(member) ||
      !(ts.isIdentifier(member.name) || ts.isStringLiteral(member.name))
    )
      continue;
    for (const decorator of ts.getDecorators(member) ?? []) {
      const call = decorator.expression;
      if (!ts.isCallExpression(call)) continue;
      const name = coreExport(checker, call.expression);
      if (name !== 'Tool' && name !== 'Prompt' && name !== 'Resource') continue;
      const kind = KINDS[name];
      const uri = kind === 'resource' ? call.arguments[0] : undefined;
      const options = kind === 'resource' ? call.arguments[1] : call.arguments[0];
      const optionsType = options && checker.getTypeAtLocation(options);
      const declared = (key: string) => Boolean(optionsType?.getProperty(key));
      const hasArg = member.parameters.some((p) =>
        (ts.getDecorators(p) ?? []).some(
          (d) =>
            ts.isCallExpression(d.expression) &&
            coreExport(checker, d.expression.expression) === 'Arg',
        ),
      );
      found.push({
        origin: `${node.name!.text}.${member.name.text}`,
        kind,
        node: member,
        options,
        declares: {
          input: declared('input') || hasArg,
          output: declared('output'),
          description:
            declared('description') ||
            Boolean(optionsType && optionsType.flags & ts.TypeFlags.StringLike),
        },
        takesArguments: !uri || !ts.isStringLiteralLike(uri) || uri.text.includes('{'),
      });
    }
  }
  return found;
}

/** The name under which `@mcp-fw/core` exports what `expression` refers to (through renames). */
function coreExport(checker: ts.TypeChecker, expression: ts.Expression): string | undefined {
  const at = ts.isPropertyAccessExpression(expression) ? expression.name : expression;
  let symbol = checker.getSymbolAtLocation(at);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  if (!symbol?.declarations?.some((d) => isCoreFile(d.getSourceFile().fileName))) return undefined;
  return symbol.getName();
}
