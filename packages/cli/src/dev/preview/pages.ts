import { cspAdvice, viewPolicy } from './csp.js';

// The preview's three browser documents. The host page runs ext-apps' AppBridge (bundled by
// esbuild at start, see server.ts); the sandbox page is served from a second origin and holds
// the view in an inner srcdoc iframe under the CSP built from the server's `_meta.ui.csp`, as
// web hosts do, so a view that works here is not relying on the host's own origin.

/** The sandbox page: relays the view protocol and reports CSP violations to the host. */
export const SANDBOX_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>mcp-fw preview sandbox</title>
<style>html,body{margin:0;height:100%}iframe{border:0;width:100%;height:100%;display:block}</style>
</head><body><script>
${viewPolicy.toString()}
${cspAdvice.toString()}
let inner;
const REPORTER = '<script>document.addEventListener("securitypolicyviolation",function(e){parent.postMessage({mcpFwPreview:"csp-violation",directive:e.effectiveDirective||e.violatedDirective,blockedURI:e.blockedURI},"*")});<\\/script>';
function load(params) {
  const policy = viewPolicy(params.csp);
  const head = REPORTER + '<meta http-equiv="Content-Security-Policy" content="' + policy.replace(/"/g, '&quot;') + '">';
  const html = String(params.html);
  const at = html.search(/<head[^>]*>/i);
  const doc = at >= 0 ? html.replace(/<head[^>]*>/i, (tag) => tag + head) : head + html;
  inner = document.createElement('iframe');
  inner.setAttribute('sandbox', params.sandbox || 'allow-scripts allow-same-origin allow-forms');
  inner.srcdoc = doc;
  document.body.append(inner);
  window.parent.postMessage({ mcpFwPreview: 'policy', policy }, '*');
}
window.addEventListener('message', (event) => {
  const data = event.data;
  if (event.source === window.parent) {
    if (data && data.method === 'ui/notifications/sandbox-resource-ready') load(data.params || {});
    else if (inner && inner.contentWindow) inner.contentWindow.postMessage(data, '*');
  } else if (inner && event.source === inner.contentWindow) {
    if (data && data.mcpFwPreview === 'csp-violation')
      window.parent.postMessage({ mcpFwPreview: 'csp-violation', advice: cspAdvice(data.directive, data.blockedURI) }, '*');
    else window.parent.postMessage(data, '*');
  }
});
window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, '*');
</script></body></html>
`;

/** The host page; `sandboxUrl` is the sandbox page on its own origin. */
export function hostHtml(sandboxUrl: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>mcp-fw preview</title>
<style>
body{font:14px system-ui,sans-serif;margin:0;display:grid;grid-template-columns:320px 1fr;min-height:100vh}
aside{padding:12px;border-right:1px solid #ddd;background:#fafafa}
main{padding:12px}
label{display:block;margin:8px 0 2px}
input,select,textarea{width:100%;box-sizing:border-box}
#view{width:100%;height:360px;border:1px solid #ccc}
#violations li{color:#a00}
#messages{font:12px ui-monospace,monospace;max-height:320px;overflow:auto}
#messages li[data-direction="host→view"]{color:#05a}
</style></head>
<body data-sandbox="${sandboxUrl}">
<aside>
<h1>mcp-fw preview</h1>
<label for="tool">Tool</label><select id="tool"></select>
<p id="description"></p>
<form id="inputs"></form>
<button id="call" type="button">Call</button>
<p id="status"></p>
</aside>
<main>
<iframe id="view" title="view"></iframe>
<h2>CSP violations</h2><ul id="violations"></ul>
<h2>Messages between view and host</h2><ol id="messages"></ol>
<h2>Result</h2><pre id="result"></pre>
</main>
<script type="module" src="/host.js"></script>
</body></html>
`;
}

/** The host page's script (bundled with ext-apps' AppBridge by esbuild). */
export const HOST_SCRIPT = `
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

const $ = (id) => document.getElementById(id);
const sandboxUrl = document.body.dataset.sandbox;
const messages = (window.__previewMessages = []);
const violations = (window.__previewViolations = []);

async function api(path, body) {
  const response = await fetch('/api/' + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(json.error);
  return json;
}

function logMessage(direction, message) {
  messages.push({ direction, message });
  const item = document.createElement('li');
  item.dataset.direction = direction;
  item.dataset.method = message && message.method ? message.method : '';
  // Long ones (the view's whole document) are cut in the list; the title has them whole.
  const text = JSON.stringify(message);
  item.title = text;
  item.textContent = direction + ' ' + (text.length > 400 ? text.slice(0, 400) + '…' : text);
  $('messages').append(item);
}

function listViolation(advice) {
  violations.push(advice);
  const item = document.createElement('li');
  item.textContent =
    advice.directive + ' blocked ' + advice.blocked + ': ' +
    (advice.field ? 'add ' + advice.add + ' to csp.' + advice.field : 'no csp field allows ' + advice.blocked + '; hosts refuse it too');
  $('violations').append(item);
}

const { tools } = await api('tools');
for (const tool of tools) $('tool').append(new Option(tool.name, tool.name));

function selected() {
  return tools.find((t) => t.name === $('tool').value);
}

function showForm() {
  const tool = selected();
  $('description').textContent = tool?.description ?? '';
  const form = $('inputs');
  form.replaceChildren();
  const properties = tool?.inputSchema?.properties ?? {};
  for (const [name, schema] of Object.entries(properties)) {
    const label = document.createElement('label');
    label.textContent = name + (schema.description ? ' (' + schema.description + ')' : '');
    const input = document.createElement('input');
    input.name = name;
    input.dataset.type = schema.type ?? 'string';
    if (schema.type === 'boolean') input.type = 'checkbox';
    else if (schema.type === 'number' || schema.type === 'integer') input.type = 'number';
    label.append(input);
    form.append(label);
  }
}
$('tool').addEventListener('change', showForm);
showForm();

function argumentsOf() {
  const args = {};
  for (const input of $('inputs').querySelectorAll('input')) {
    const type = input.dataset.type;
    if (type === 'boolean') args[input.name] = input.checked;
    else if (input.value === '') continue;
    else if (type === 'number' || type === 'integer') args[input.name] = Number(input.value);
    else if (type === 'object' || type === 'array') args[input.name] = JSON.parse(input.value);
    else args[input.name] = input.value;
  }
  return args;
}

// Messages of the preview itself (not the view protocol) stop here, before the bridge's
// transport, which would take them for malformed JSON-RPC.
let frame;
window.addEventListener('message', (event) => {
  if (!frame || event.source !== frame.contentWindow) return;
  const data = event.data;
  if (data && data.mcpFwPreview) {
    event.stopImmediatePropagation();
    if (data.mcpFwPreview === 'csp-violation') listViolation(data.advice);
    return;
  }
  logMessage('view→host', data);
});

let bridge;
async function call() {
  const tool = selected();
  const args = argumentsOf();
  $('violations').replaceChildren();
  $('messages').replaceChildren();
  $('status').textContent = 'calling ' + tool.name + '…';
  const uri = tool._meta?.ui?.resourceUri ?? tool._meta?.['ui/resourceUri'];
  if (!uri) {
    const result = await api('call', { name: tool.name, arguments: args });
    $('result').textContent = JSON.stringify(result, null, 2);
    $('status').textContent = 'done (no view)';
    return;
  }
  const read = await api('read', { uri });
  const content = read.contents[0];
  const ui = content._meta?.ui ?? {};
  if (bridge) await bridge.close().catch(() => {});
  const old = $('view');
  frame = document.createElement('iframe');
  frame.id = 'view';
  frame.title = uri;
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  old.replaceWith(frame);
  bridge = new AppBridge(
    null,
    { name: 'mcp-fw preview', version: '1' },
    { serverTools: {}, serverResources: {}, logging: {}, openLinks: {} },
  );
  bridge.oncalltool = (params) => api('call', params);
  bridge.onreadresource = (params) => api('read', params);
  bridge.onmessage = async () => ({});
  bridge.onopenlink = async () => ({});
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = height + 'px';
  };
  bridge.addEventListener('sandboxready', () => {
    void bridge.sendSandboxResourceReady({ html: content.text, csp: ui.csp, permissions: ui.permissions });
  });
  bridge.oninitialized = async () => {
    await bridge.sendToolInput({ arguments: args });
    const result = await api('call', { name: tool.name, arguments: args });
    $('result').textContent = JSON.stringify(result, null, 2);
    await bridge.sendToolResult(result);
    $('status').textContent = 'rendered ' + uri;
  };
  const transport = new PostMessageTransport(frame.contentWindow, frame.contentWindow);
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    logMessage('host→view', message);
    return send(message, options);
  };
  await bridge.connect(transport);
  frame.src = sandboxUrl;
}
$('call').addEventListener('click', () => call().catch((error) => {
  $('status').textContent = 'failed: ' + error.message;
}));
`;
