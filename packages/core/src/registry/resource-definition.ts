import type { Completer, Icon, ResourceAnnotations, ResourceEntry } from '../decorators/index.js';
import type { UriTemplate, Validator } from '../schema/index.js';
import type { MemberLimits } from './member-limits.js';
import type { ViewSpec } from './views.js';

interface ResourceCommon {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly icons?: readonly Icon[];
  readonly annotations?: ResourceAnnotations;
  readonly _meta?: Record<string, unknown>;
  readonly origin: string;
  /** Declared `timeoutMs` (the server's default applies where absent). */
  readonly limits: MemberLimits;
  /** OAuth scopes a caller needs (own `scopes`, else the class's `@Scopes`; empty: none). */
  readonly scopes: readonly string[];
  /** Middleware from `@Use` on the class and the member, outermost first (run by the protocol layer). */
  readonly middleware: readonly unknown[];
  readonly handler: (variables: unknown, ctx: unknown) => unknown;
}

/** A resource with a fixed URI. */
export interface ResourceDefinition extends ResourceCommon {
  readonly uri: string;
  readonly size?: number;
  /** Set for an MCP Apps view (`@View`): its `_meta.ui` and size limit. */
  readonly view?: ViewSpec;
}

/** A resource template: URIs matching it are read through its handler. */
export interface TemplateDefinition extends ResourceCommon {
  readonly uriTemplate: string;
  readonly template: UriTemplate;
  readonly validateVariables: Validator;
  readonly completers: ReadonlyMap<string, Completer>;
  /** Concrete resources to include in `resources/list`. */
  readonly list?: (ctx: unknown) => Promise<readonly ResourceEntry[]>;
}
