import type { MemberLimitOptions } from './limits.js';
import { methodDecorator, type MethodDecorator } from './method-decorator.js';
import { RESOURCE_KIND } from './resource.js';
import type { MemberScopeOptions } from './scopes.js';

/**
 * The origins a view may reach (MCP Apps `McpUiResourceCsp`). Each entry is an origin such as
 * `https://api.example.com` or `https://*.example.com`; the host turns them into the view's
 * Content Security Policy. Empty or absent: nothing outside the view's own document.
 */
export interface ViewCsp {
  /** fetch/XHR/WebSocket targets (`connect-src`). */
  connectDomains?: string[];
  /** Images, scripts, styles, fonts and media (`img-src`, `script-src`, `style-src`, …). */
  resourceDomains?: string[];
  /** Nested iframes (`frame-src`). */
  frameDomains?: string[];
  /** Allowed `<base href>` targets (`base-uri`). */
  baseUriDomains?: string[];
}

/** Browser permissions a view asks the host for (MCP Apps `McpUiResourcePermissions`). */
export interface ViewPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** Options of {@link View}. */
export interface ViewOptions extends MemberLimitOptions, MemberScopeOptions {
  /** Defaults to the method name. */
  name?: string;
  title?: string;
  description?: string;
  /** What the view may load and reach; sent as `_meta.ui.csp`. */
  csp?: ViewCsp;
  permissions?: ViewPermissions;
  /** A dedicated sandbox origin; its format is the host's (e.g. `abc.claudemcpcontent.com`). */
  domain?: string;
  /** Whether the host should draw a border and background around the view. */
  prefersBorder?: boolean;
  /** The largest HTML document this view may serve, in bytes (default 2 MB). */
  maxBytes?: number;
}

/**
 * Exposes a method as an MCP Apps view: a `ui://` resource whose HTML document a host renders
 * in a sandboxed iframe, for the tools that name it with `@Tool({ ui })`. The method returns
 * the HTML (a string, or a promise of one). The MIME type `text/html;profile=mcp-app` and
 * `_meta.ui` (CSP, permissions, domain, border) are set for you, on the `resources/list` entry
 * and on the `resources/read` content. A method that takes no arguments and returns a string
 * is called once when the server is built, so a broken document fails at startup.
 *
 * @example
 * ```ts
 * class Orders {
 *   @View('ui://orders/board', { csp: { connectDomains: ['https://api.example.com'] } })
 *   board() { return readFileSync('dist/views/board.html', 'utf8'); }
 *
 *   @Tool({ description: 'Shows the open orders', ui: 'ui://orders/board' })
 *   openOrders() { return { orders: db.open() }; }
 *
 *   @Tool({ description: 'Marks an order shipped', ui: { resource: 'ui://orders/board', visibility: ['app'] } })
 *   ship({ id }: { id: string }) { return db.ship(id); }
 * }
 * ```
 */
export function View(uri: string, options: ViewOptions = {}): MethodDecorator {
  return methodDecorator(RESOURCE_KIND, '@View', { ...options, uri, view: true });
}
