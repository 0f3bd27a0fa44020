import type { ResourceEntry, ResourceOptions } from '../decorators/index.js';
import {
  isUriTemplate,
  parseUriTemplate,
  type JsonSchema,
  type UriTemplate,
} from '../schema/index.js';
import { StartupError } from './errors.js';
import { memberLimits } from './member-limits.js';
import { memberMiddleware } from './member-middleware.js';
import { memberScopes } from './member-scopes.js';
import { methodInput } from './member-input.js';
import { deepFreeze, makeHandler, memberMethod, type MemberSource } from './member-method.js';
import type { ResourceDefinition, TemplateDefinition } from './resource-definition.js';
import { VIEW_MIME_TYPE, viewProblem, viewSpec, type ViewSpec } from './views.js';
import type { ViewOptions } from '../decorators/view.js';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Builds a static resource or a template, depending on whether the URI has `{variables}`. */
export function buildResource(source: MemberSource): ResourceDefinition | TemplateDefinition {
  const options = source.record.options as ResourceOptions & { uri: string; view?: true };
  const method = memberMethod(source, options.view ? '@View' : '@Resource');
  const { origin } = method;
  const { uri } = options;
  if (typeof uri !== 'string' || !SCHEME.test(uri)) {
    throw new StartupError(
      'INVALID_NAME',
      `${origin}: @Resource needs an absolute URI with a scheme, got ${JSON.stringify(uri)}. Fix: e.g. @Resource('file:///logs/app.log').`,
    );
  }
  const name = options.name ?? (typeof source.record.key === 'string' ? source.record.key : uri);
  const view = options.view ? viewSpec(uri, options as ViewOptions, origin) : undefined;
  const common = {
    name,
    title: options.title,
    description: options.description ?? source.derived?.description,
    mimeType: view ? VIEW_MIME_TYPE : options.mimeType,
    icons: options.icons,
    annotations: options.annotations,
    _meta: view ? { ...options._meta, ui: view.meta } : options._meta,
    origin,
    limits: memberLimits({ timeoutMs: options.timeoutMs }, origin),
    scopes: memberScopes(options.scopes, source, origin),
    middleware: memberMiddleware(source),
  };
  if (!isUriTemplate(uri)) {
    if (options.list !== undefined) {
      throw new StartupError(
        'CONFLICTING_OPTIONS',
        `${origin}: \`list\` enumerates a template's resources; ${uri} is not a template.`,
      );
    }
    const handler = makeHandler(method, source.receiver, undefined);
    if (view) checkDocumentNow(method.fn, source.receiver, uri, view, origin);
    return Object.freeze({ ...common, uri, size: options.size, handler, view });
  }
  let template: UriTemplate;
  try {
    template = parseUriTemplate(uri);
  } catch (error) {
    throw new StartupError('INVALID_SCHEMA', `${origin}: ${(error as Error).message}`);
  }
  const input = methodInput(source, method, options, stringVariables(uri));
  for (const name of [
    ...input.completers.keys(),
    ...Object.keys((input.schema.properties as object) ?? {}),
  ]) {
    if (!template.variables.includes(name)) {
      throw new StartupError(
        'INVALID_SCHEMA',
        `${origin}: "${name}" is not a variable of ${uri} (variables: ${template.variables.join(', ')}).`,
      );
    }
  }
  return Object.freeze({
    ...common,
    uriTemplate: uri,
    template,
    validateVariables: input.validate,
    completers: input.completers,
    list: listFunction(options.list, source.receiver, origin),
    handler: makeHandler(method, source.receiver, input.positional),
  });
}

function stringVariables(uri: string): JsonSchema {
  const template = parseUriTemplate(uri);
  const query = new Set([...uri.matchAll(/\{[?&]([^}]+)\}/g)].flatMap((m) => m[1].split(',')));
  const properties = Object.fromEntries(template.variables.map((v) => [v, { type: 'string' }]));
  return deepFreeze({
    type: 'object',
    properties,
    required: template.variables.filter((v) => !query.has(v)),
  });
}

function listFunction(
  list: ResourceOptions['list'],
  receiver: object,
  origin: string,
): TemplateDefinition['list'] {
  if (list === undefined) return undefined;
  const fn = typeof list === 'string' ? (receiver as Record<string, unknown>)[list] : list;
  if (typeof fn !== 'function') {
    throw new StartupError(
      'INVALID_PROVIDER',
      `${origin}: list: '${String(list)}' is not a method of the class.`,
    );
  }
  return async (ctx) => (await fn.call(receiver, ctx)) as readonly ResourceEntry[];
}

// A view method that takes nothing and answers synchronously (a constant, a readFileSync) is a
// fixed document: check it now, so a broken or oversized view stops the server at startup.
// Anything else (async, needing the context) is checked on each read instead.
function checkDocumentNow(
  fn: Function,
  receiver: object,
  uri: string,
  view: ViewSpec,
  origin: string,
): void {
  if (fn.length > 0) return;
  let html: unknown;
  try {
    html = fn.call(receiver, {}, undefined);
  } catch {
    return;
  }
  if (html instanceof Promise) {
    html.catch(() => {});
    return;
  }
  const problem = viewProblem(html, uri, view.maxBytes);
  if (problem) throw new StartupError('INVALID_VIEW', `${origin}: ${problem}`);
}
