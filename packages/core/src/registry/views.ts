import type { ToolUi } from '../decorators/tool.js';
import type { ViewCsp, ViewOptions } from '../decorators/view.js';
import { StartupError } from './errors.js';

// MCP Apps (extension io.modelcontextprotocol/ui, SEP-1865): the names on the wire.

/** The extension's identifier, the key under `capabilities.extensions` on both sides. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type of a view's HTML document. */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';
/** The deprecated flat key hosts read before `_meta.ui.resourceUri`; mirrored while they do. */
export const FLAT_RESOURCE_URI_KEY = 'ui/resourceUri';
/** Default of `ViewOptions.maxBytes`: a bundled React view is a few hundred kB. */
export const DEFAULT_VIEW_MAX_BYTES = 2_000_000;

const CSP_FIELDS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'];
// An origin: scheme, host (a leading `*.` allowed), optional port, nothing after.
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?$/;
const DOCUMENT_START = /^\s*(<!--[\s\S]*?-->\s*)*(<!doctype html(\s[^>]*)?>|<html[\s>])/i;

/** What a view adds to its resource: the checked `_meta.ui` and its size limit. */
export interface ViewSpec {
  readonly meta: Readonly<Record<string, unknown>>;
  readonly maxBytes: number;
}

/** Checks a view's options; a `ui://` URI, origins in the CSP, known permissions. */
export function viewSpec(uri: string, options: ViewOptions, origin: string): ViewSpec {
  if (!uri.startsWith('ui://') || uri.length <= 'ui://'.length) {
    throw invalid(
      `${origin}: @View needs a ui:// URI, got ${JSON.stringify(uri)}. Fix: e.g. @View('ui://orders/board').`,
    );
  }
  if (uri.includes('{')) {
    throw invalid(
      `${origin}: @View ${uri} is a URI template; a view is one document. Fix: drop the {variables} and pass data through the tool's result.`,
    );
  }
  const meta: Record<string, unknown> = {};
  if (options.csp !== undefined) meta.csp = checkCsp(options.csp, origin);
  if (options.permissions !== undefined) {
    for (const key of Object.keys(options.permissions)) {
      if (!PERMISSIONS.includes(key)) {
        throw invalid(
          `${origin}: permissions.${key} is not an MCP Apps permission. Fix: use ${PERMISSIONS.join(', ')}.`,
        );
      }
    }
    meta.permissions = options.permissions;
  }
  if (options.domain !== undefined) {
    if (typeof options.domain !== 'string' || options.domain.length === 0) {
      throw invalid(
        `${origin}: domain must be a non-empty string in the host's format (e.g. "abc.claudemcpcontent.com").`,
      );
    }
    meta.domain = options.domain;
  }
  if (options.prefersBorder !== undefined) {
    if (typeof options.prefersBorder !== 'boolean')
      throw invalid(`${origin}: prefersBorder must be true or false.`);
    meta.prefersBorder = options.prefersBorder;
  }
  const maxBytes = options.maxBytes ?? DEFAULT_VIEW_MAX_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes <= 0) {
    throw invalid(`${origin}: maxBytes must be a positive integer (bytes), got ${maxBytes}.`);
  }
  return Object.freeze({ meta: Object.freeze(meta), maxBytes });
}

function checkCsp(csp: ViewCsp, origin: string): ViewCsp {
  const out: ViewCsp = {};
  for (const key of Object.keys(csp)) {
    if (!(CSP_FIELDS as readonly string[]).includes(key)) {
      throw invalid(
        `${origin}: csp.${key} is not an MCP Apps CSP field. Fix: use ${CSP_FIELDS.join(', ')}.`,
      );
    }
  }
  for (const field of CSP_FIELDS) {
    const list = csp[field];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw invalid(`${origin}: csp.${field} must be an array of origins.`);
    for (const entry of list) {
      if (typeof entry !== 'string' || !ORIGIN.test(entry)) {
        throw invalid(
          `${origin}: csp.${field} entry ${JSON.stringify(entry)} is not an origin. Fix: give scheme and host only, e.g. "https://api.example.com" or "https://*.example.com" (no path, no trailing slash).`,
        );
      }
    }
    out[field] = [...list];
  }
  return out;
}

/**
 * Refuses what a host could not render: not an HTML document, or larger than the view allows.
 * Returns the problem, or undefined when the document is fine.
 */
export function viewProblem(html: unknown, uri: string, maxBytes: number): string | undefined {
  if (typeof html !== 'string') {
    return `view ${uri} returned ${html === null ? 'null' : typeof html}, not an HTML document. Fix: return the document as a string.`;
  }
  if (!DOCUMENT_START.test(html)) {
    const start = JSON.stringify(html.trimStart().slice(0, 40));
    return `view ${uri} is not an HTML document: it starts with ${start}. Fix: return a whole document beginning with <!doctype html> (a bundled view: run mcp-fw build).`;
  }
  const bytes = new TextEncoder().encode(html).length;
  if (bytes > maxBytes) {
    return `view ${uri} is ${bytes} bytes, over its limit of ${maxBytes}. Fix: shrink the bundle (images as URLs under csp.resourceDomains), or raise maxBytes in @View.`;
  }
  return undefined;
}

/** A tool's `_meta` with its view: `_meta.ui` and the deprecated flat key. */
export function toolUiMeta(
  ui: ToolUi,
  meta: Record<string, unknown> | undefined,
  origin: string,
): Record<string, unknown> {
  const options = typeof ui === 'string' ? { resource: ui } : ui;
  if (
    typeof options !== 'object' ||
    options === null ||
    typeof options.resource !== 'string' ||
    !options.resource.startsWith('ui://')
  ) {
    throw invalid(
      `${origin}: ui must name a view by its ui:// URI, got ${JSON.stringify(typeof ui === 'string' ? ui : options?.resource)}. Fix: e.g. @Tool({ ui: 'ui://orders/board' }), with an @View('ui://orders/board') in some provider.`,
    );
  }
  const visibility = options.visibility ?? ['model', 'app'];
  if (
    !Array.isArray(visibility) ||
    visibility.length === 0 ||
    visibility.some((v) => v !== 'model' && v !== 'app')
  ) {
    throw invalid(
      `${origin}: ui.visibility must list 'model' and/or 'app', got ${JSON.stringify(visibility)}. Fix: ['app'] for a tool only the view calls.`,
    );
  }
  const own = (meta?.ui ?? {}) as Record<string, unknown>;
  return {
    ...meta,
    ui: { ...own, resourceUri: options.resource, visibility: [...visibility] },
    [FLAT_RESOURCE_URI_KEY]: options.resource,
  };
}

/** The view a tool renders in, if any. */
export function toolView(tool: { _meta?: Record<string, unknown> }): string | undefined {
  const ui = tool._meta?.ui as { resourceUri?: unknown } | undefined;
  return typeof ui?.resourceUri === 'string' ? ui.resourceUri : undefined;
}

/** Whether only views may call the tool (`visibility: ['app']`). */
export function appOnly(tool: { _meta?: Record<string, unknown> }): boolean {
  const ui = tool._meta?.ui as { visibility?: unknown } | undefined;
  return Array.isArray(ui?.visibility) && !ui.visibility.includes('model');
}

/** Every tool names a view some provider declares; otherwise a startup error naming both. */
export function checkToolViews(
  tools: readonly { name: string; origin: string; _meta?: Record<string, unknown> }[],
  resources: readonly { uri: string; view?: ViewSpec }[],
): void {
  const views = new Set(resources.filter((r) => r.view).map((r) => r.uri));
  for (const tool of tools) {
    const uri = toolView(tool);
    if (uri === undefined || views.has(uri)) continue;
    const known = views.size
      ? ` Views declared: ${[...views].join(', ')}.`
      : ' No view is declared.';
    const plain = resources.some((r) => r.uri === uri)
      ? ` ${uri} is a plain @Resource; declare it with @View instead.`
      : '';
    throw invalid(
      `${tool.origin}: tool ${tool.name} names the view ${uri}, which no @View declares.${plain}${known} Fix: add @View('${uri}') to a provider, or correct the tool's ui.`,
    );
  }
}

/** Whether a client declared it renders MCP Apps views (`extensions[UI_EXTENSION].mimeTypes`). */
export function rendersViews(capabilities: Record<string, unknown> | undefined): boolean {
  const extensions = capabilities?.extensions as Record<string, unknown> | undefined;
  const ui = extensions?.[UI_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(VIEW_MIME_TYPE);
}

function invalid(message: string): StartupError {
  return new StartupError('INVALID_VIEW', message);
}
