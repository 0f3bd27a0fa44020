import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CliError } from '../output/cli-error.js';

/** Where a project keeps its views: `views/<name>/index.html`, each bundled on its own. */
export const VIEWS_DIR = 'views';

/** One view of a project: its name and its folder. */
export interface ViewSource {
  readonly name: string;
  readonly dir: string;
}

/** One bundled view: the self-contained document written for it. */
export interface BundledView {
  readonly name: string;
  readonly file: string;
  readonly bytes: number;
}

/** The views of the project in `projectDir`: every `views/<name>/` with an `index.html`. */
export function findViews(projectDir: string): ViewSource[] {
  const root = join(projectDir, VIEWS_DIR);
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => statSync(join(root, name)).isDirectory())
    .filter((name) => existsSync(join(root, name, 'index.html')))
    .sort()
    .map((name) => ({ name, dir: join(root, name) }));
}

/** Every file inside the project's view folders, for `mcp-fw dev` to watch. */
export function viewFiles(projectDir: string): string[] {
  return findViews(projectDir).flatMap((view) =>
    readdirSync(view.dir, { recursive: true })
      .map((f) => join(view.dir, String(f)))
      .filter((f) => statSync(f).isFile()),
  );
}

/** The views that own any of `files`. */
export function changedViews(projectDir: string, files: readonly string[]): ViewSource[] {
  return findViews(projectDir).filter((view) =>
    files.some((file) => file.startsWith(`${view.dir}/`)),
  );
}

const INSTALL = 'npm install -D -E vite@8.3.8 vite-plugin-singlefile@2.3.4';

/**
 * Bundles each view into one HTML document (scripts, styles and small assets inlined) in
 * `<outDir>/views/<name>.html`, where `viewsIn(new URL('./views/', import.meta.url))` finds it.
 * Vite and vite-plugin-singlefile are the project's own devDependencies, loaded from it: a
 * server without views never needs them. A `vite.config.*` in a view's folder is used (React
 * through @vitejs/plugin-react, for instance), with the single-file plugin added.
 */
export async function bundleViews(
  projectDir: string,
  outDir: string,
  views: readonly ViewSource[] = findViews(projectDir),
): Promise<BundledView[]> {
  if (views.length === 0) return [];
  const { vite, singleFile } = await loadVite(projectDir);
  const target = join(outDir, VIEWS_DIR);
  mkdirSync(target, { recursive: true });
  const bundled: BundledView[] = [];
  for (const view of views) {
    const html = await bundleOne(vite, singleFile, view);
    const local = localReferences(html);
    if (local.length > 0) {
      throw new CliError(
        `View ${view.name} still loads ${local.join(', ')} from beside it, which a host cannot serve (a view is one document).`,
        "Import the file from a script (Vite inlines it), or load it from a URL listed in the view's csp.resourceDomains.",
      );
    }
    const file = join(target, `${view.name}.html`);
    writeFileSync(file, html);
    bundled.push({ name: view.name, file, bytes: Buffer.byteLength(html) });
  }
  return bundled;
}

// What is used of Vite, typed here: it is the project's package, not this CLI's dependency.
interface ViteModule {
  build(config: Record<string, unknown>): Promise<unknown>;
}

async function loadVite(
  projectDir: string,
): Promise<{ vite: ViteModule; singleFile: () => unknown }> {
  const require = createRequire(join(projectDir, 'package.json'));
  const load = async (name: string) => {
    try {
      return await import(pathToFileURL(require.resolve(name)).href);
    } catch {
      throw new CliError(
        `The project has views (${VIEWS_DIR}/<name>/), and bundling them needs ${name}, which it does not have.`,
        `Install the view toolchain in the project: ${INSTALL}`,
      );
    }
  };
  const vite = (await load('vite')) as ViteModule;
  const plugin = await load('vite-plugin-singlefile');
  return { vite, singleFile: plugin.viteSingleFile };
}

async function bundleOne(
  vite: ViteModule,
  singleFile: () => unknown,
  view: ViewSource,
): Promise<string> {
  const hasConfig = readdirSync(view.dir).some((f) => /^vite\.config\.[cm]?[jt]s$/.test(f));
  let output: unknown;
  try {
    output = await vite.build({
      root: view.dir,
      configFile: hasConfig ? undefined : false,
      logLevel: 'warn',
      plugins: [singleFile()],
      build: { write: false, emptyOutDir: false, assetsInlineLimit: 100_000_000 },
    });
  } catch (error) {
    throw new CliError(
      `Bundling view ${view.name} failed: ${(error as Error).message}`,
      `Fix ${VIEWS_DIR}/${view.name}/ (its index.html and what it imports), then build again.`,
    );
  }
  const results = (Array.isArray(output) ? output : [output]) as {
    output: { fileName: string; type: string; source?: string | Uint8Array }[];
  }[];
  const page = results
    .flatMap((r) => r.output)
    .find((item) => item.fileName === 'index.html' && item.type === 'asset');
  if (!page?.source) {
    throw new CliError(
      `Bundling view ${view.name} produced no index.html.`,
      `Check ${VIEWS_DIR}/${view.name}/index.html exists and is the page Vite builds.`,
    );
  }
  return typeof page.source === 'string' ? page.source : new TextDecoder().decode(page.source);
}

/**
 * `src`/`href` attributes that point at files beside the document (not data:, not a URL). The
 * inlined scripts' and styles' text is left out: a bundled library's strings (React DOM builds
 * `<link … href=…>` markup) are not references.
 */
function localReferences(html: string): string[] {
  const markup = html.replace(/(<(script|style)\b[^>]*>)[\s\S]*?<\/\2\s*>/gi, '$1</$2>');
  const refs = [...markup.matchAll(/<(?:script|link|img)\b[^>]*\s(?:src|href)=["']([^"']+)["']/gi)]
    .map((m) => m[1])
    .filter((ref) => !/^(data:|https?:|\/\/|#|blob:)/i.test(ref));
  return [...new Set(refs)];
}
