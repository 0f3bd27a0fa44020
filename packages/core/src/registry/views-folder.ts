import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { View, type ViewOptions } from '../decorators/index.js';
import { StartupError } from './errors.js';

/** Options of one view found by {@link viewsIn}: its `ui://` URI and its {@link ViewOptions}. */
export interface FolderViewOptions extends ViewOptions {
  /** Default `ui://views/<name>`. */
  uri?: string;
}

/**
 * Serves every bundled view in a folder — what `mcp-fw build` writes from `views/<name>/`
 * (`dist/views/<name>.html`, one self-contained document each) — as an MCP Apps view, with the
 * URI and options given per name. Each read returns the file as it is now, so `mcp-fw dev`'s
 * rebuilds show at once; each file is also checked when the server is built (an HTML document,
 * under `maxBytes`), so a broken bundle stops the server at startup.
 *
 * @example
 * ```ts
 * createServer({
 *   name: 'logistics', version: '1.0.0',
 *   providers: [new Orders(db), viewsIn(new URL('./views/', import.meta.url), {
 *     board: { uri: 'ui://orders/board', csp: { connectDomains: ['https://api.example.com'] } },
 *   })],
 * });
 * ```
 */
export function viewsIn(
  folder: string | URL,
  options: Readonly<Record<string, FolderViewOptions>> = {},
): object {
  const dir = typeof folder === 'string' ? folder : fileURLToPath(folder);
  if (!existsSync(dir)) {
    throw new StartupError(
      'INVALID_VIEW',
      `viewsIn: there is no folder ${dir}. Fix: run mcp-fw build (it bundles each views/<name>/ into dist/views/<name>.html), or point viewsIn at the folder that holds them.`,
    );
  }
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.html'))
    .map((f) => basename(f, '.html'))
    .sort();
  for (const name of Object.keys(options)) {
    if (!names.includes(name)) {
      throw new StartupError(
        'INVALID_VIEW',
        `viewsIn: options name the view "${name}", but ${dir} has no ${name}.html (found: ${names.join(', ') || 'none'}). Fix: add views/${name}/index.html and run mcp-fw build, or correct the name.`,
      );
    }
  }
  if (names.length === 0) {
    throw new StartupError(
      'INVALID_VIEW',
      `viewsIn: ${dir} holds no .html view. Fix: add views/<name>/index.html to the project and run mcp-fw build.`,
    );
  }
  // One class per call: its methods are the views, each named after its file.
  const FolderViews = class {} as unknown as { new (): object; prototype: Record<string, unknown> };
  Object.defineProperty(FolderViews, 'name', { value: 'views' });
  for (const name of names) {
    const file = join(dir, `${name}.html`);
    const { uri = `ui://views/${name}`, ...view } = options[name] ?? {};
    FolderViews.prototype[name] = () => readFileSync(file, 'utf8');
    View(uri, { name, ...view })(FolderViews.prototype, name);
  }
  return new FolderViews();
}
