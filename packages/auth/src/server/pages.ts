import type { HttpReply } from '@mcp-fw/core/http';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `text` safe inside HTML text and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

// No scripts, no framing (clickjacking), nothing loaded from elsewhere.
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}code{background:#eee;padding:0 .2rem}button{font-size:1rem;padding:.4rem 1rem;margin-right:.5rem}</style></head><body>${body}</body></html>`;
}

/** What the consent page shows and posts back. */
export interface ConsentView {
  readonly action: string;
  readonly transaction: string;
  readonly csrf: string;
  readonly clientName: string;
  readonly clientId: string;
  /** The host a metadata-document client proved it controls; undefined for other clients. */
  readonly verifiedDomain?: string;
  readonly redirectUri: string;
  readonly scopes: readonly string[];
  readonly resource: string;
  readonly person: string;
}

/** The consent page: who asks, for what, on whose behalf; Allow and Deny post the CSRF token. */
export function consentPage(view: ConsentView, cookie: string): HttpReply {
  const domain = view.verifiedDomain
    ? `<p>Verified domain: <strong>${escapeHtml(view.verifiedDomain)}</strong></p>`
    : `<p>Client id: <code>${escapeHtml(view.clientId)}</code> (not verified by a domain)</p>`;
  const redirectHost = new URL(view.redirectUri).host;
  const warning =
    view.verifiedDomain && redirectHost !== view.verifiedDomain
      ? `<p><strong>Note:</strong> you will be sent back to <code>${escapeHtml(redirectHost)}</code>, not to ${escapeHtml(view.verifiedDomain)}.</p>`
      : '';
  const scopes = view.scopes.length
    ? `<ul>${view.scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('')}</ul>`
    : '<p>No particular permissions.</p>';
  const body = `<h1>Allow access?</h1><p><strong>${escapeHtml(view.clientName)}</strong> asks to use <code>${escapeHtml(view.resource)}</code> as <strong>${escapeHtml(view.person)}</strong>.</p>${domain}${warning}<p>It asks for:</p>${scopes}<form method="post" action="${escapeHtml(view.action)}"><input type="hidden" name="transaction" value="${escapeHtml(view.transaction)}"><input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}"><button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny">Deny</button></form>`;
  return {
    status: 200,
    headers: { ...PAGE_HEADERS, 'set-cookie': cookie },
    body: page('Allow access?', body),
  };
}

/** An error shown to the person (never a redirect: the client or its redirect URI is not trusted). */
export function errorPage(status: number, error: string, description: string): HttpReply {
  return {
    status,
    headers: PAGE_HEADERS,
    body: page(
      'Sign-in failed',
      `<h1>Sign-in failed</h1><p><code>${escapeHtml(error)}</code></p><p>${escapeHtml(description)}</p>`,
    ),
  };
}
