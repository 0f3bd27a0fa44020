// The Content Security Policy a web host builds for a view from its `_meta.ui.csp`, and the
// `csp` field that would allow what a violation blocked. Both run in the preview's sandbox page
// too (shipped as their source text), so each must stay one self-contained function.

/** A view's `_meta.ui.csp`, as the server declares it. */
export interface ViewCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/**
 * The policy the MCP Apps spec tells hosts to apply: nothing but the view's own inline code,
 * plus the origins the server declared for each kind of load.
 */
export function viewPolicy(csp: ViewCsp | undefined): string {
  const list = (values: string[] | undefined) => (values ?? []).join(' ');
  const resources = list(csp?.resourceDomains);
  const frames = list(csp?.frameDomains);
  const bases = list(csp?.baseUriDomains);
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `img-src 'self' data: blob: ${resources}`,
    `font-src 'self' data: ${resources}`,
    `media-src 'self' data: blob: ${resources}`,
    `connect-src 'self' ${list(csp?.connectDomains)}`,
    `frame-src ${frames || "'none'"}`,
    `base-uri ${bases || "'none'"}`,
    "object-src 'none'",
  ]
    .map((directive) => directive.trim())
    .join('; ');
}

/**
 * A blocked load as the preview lists it: the directive, the URL and the field to add its
 * origin to (`field` and `add` are empty for eval and inline code, which no field allows).
 */
export interface CspAdvice {
  readonly directive: string;
  readonly blocked: string;
  readonly field: string;
  readonly add: string;
}

/** Which `csp` field would allow a load `directive` blocked (`securitypolicyviolation`). */
export function cspAdvice(directive: string, blockedUri: string): CspAdvice {
  const kind = directive.replace(/-(elem|attr)$/, '');
  // eval and inline code are not origins: no csp field allows them, hosts never do. (zod
  // probes for eval once and falls back, which shows up here as a harmless blocked eval.)
  if (blockedUri === 'eval' || blockedUri === 'inline' || blockedUri === 'wasm-eval')
    return { directive, blocked: blockedUri, field: '', add: '' };
  const field =
    kind === 'connect-src'
      ? 'connectDomains'
      : kind === 'frame-src' || kind === 'child-src'
        ? 'frameDomains'
        : kind === 'base-uri'
          ? 'baseUriDomains'
          : ['img-src', 'script-src', 'style-src', 'font-src', 'media-src'].includes(kind)
            ? 'resourceDomains'
            : `(none: ${directive} stays closed to views)`;
  let add = blockedUri;
  try {
    add = new URL(blockedUri).origin;
  } catch {
    // "inline", "eval" and the like are not URLs: shown as they are.
  }
  return { directive, blocked: blockedUri, field, add };
}
