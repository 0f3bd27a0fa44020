import {
  ErrorCode,
  ENVELOPE_META,
  isLegacyRevision,
  isModernRevision,
  JsonRpcError,
  LATEST_LEGACY,
  LEGACY_REVISIONS,
  MODERN_REVISIONS,
  requestEnvelope,
} from '@mcp-fw/core/transport';
import { AuthorizationError } from './auth/errors.js';
import { NegotiationError, RequestTimeoutError, TransportError } from './errors.js';
import type { Session } from './session.js';
import { TASKS_EXTENSION } from './tasks.js';
import type { ServerDescription } from './types.js';

/** A `server/discover` result, as a gateway may cache it and hand it back to {@link connect}. */
export interface DiscoverResult {
  readonly supportedVersions: readonly string[];
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly instructions?: string;
  readonly serverInfo?: ServerDescription['serverInfo'];
  readonly _meta?: Readonly<Record<string, unknown>>;
  readonly [member: string]: unknown;
}

/** What negotiation needs from the client's options. */
export interface NegotiationSettings {
  readonly protocolVersion?: string;
  readonly discover?: DiscoverResult;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly logLevel?: string;
  /** Declare the tasks extension in 2026-07-28 requests (the client follows tasks). */
  readonly tasks: boolean;
  /** How long `server/discover` may take before a stream transport's server counts as legacy. */
  readonly probeTimeoutMs: number;
  readonly timeoutMs: number;
  /** Open the legacy HTTP session's standalone GET stream once initialized. */
  readonly standaloneStream: boolean;
}

/** The outcome: the server's description; the era and revision are set on the session. */
export type Negotiated = ServerDescription;

const SPOKEN = [...MODERN_REVISIONS, ...LEGACY_REVISIONS];

/**
 * Decides the era and revision (protocol.md §3.1): 2026-07-28 through `server/discover` where the
 * server offers it, else an `initialize` handshake offering the latest legacy revision and
 * accepting whichever legacy revision the server answers with. A pinned `protocolVersion` skips
 * the other era; a cached `discover` result skips the round trip.
 */
export async function negotiate(
  session: Session,
  settings: NegotiationSettings,
): Promise<Negotiated> {
  const pinned = settings.protocolVersion;
  if (pinned !== undefined && !SPOKEN.includes(pinned as (typeof SPOKEN)[number]))
    throw new NegotiationError(
      `protocolVersion "${pinned}" is not a revision this client speaks (${SPOKEN.join(', ')})`,
    );
  if (settings.discover) return fromCachedDiscover(session, settings, settings.discover);
  if (pinned === undefined || isModernRevision(pinned)) {
    const modern = await tryModern(session, settings, pinned ?? MODERN_REVISIONS[0]);
    if (modern) return modern;
  }
  return legacy(session, settings, pinned ?? LATEST_LEGACY);
}

function beModern(session: Session, settings: NegotiationSettings, version: string): void {
  session.era = 'modern';
  session.protocolVersion = version;
  const envelope = (capabilities: Readonly<Record<string, unknown>>) => {
    const built = requestEnvelope(version, capabilities, settings.clientInfo);
    if (settings.logLevel !== undefined) built[ENVELOPE_META.logLevel] = settings.logLevel;
    return built;
  };
  session.envelope = envelope(
    settings.tasks ? withTasksExtension(settings.capabilities) : settings.capabilities,
  );
  // A call that asks for no task declares no extension: the server decides by the declaration.
  session.taskFreeEnvelope = settings.tasks ? envelope(settings.capabilities) : undefined;
}

function withTasksExtension(
  capabilities: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const extensions = (capabilities.extensions ?? {}) as Record<string, unknown>;
  return { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } };
}

function fromCachedDiscover(
  session: Session,
  settings: NegotiationSettings,
  discover: DiscoverResult,
): Negotiated {
  const version = pickModern(discover.supportedVersions, settings.protocolVersion);
  if (!version)
    throw new NegotiationError(
      `The cached server/discover result lists ${JSON.stringify(discover.supportedVersions)}, none of which this client speaks (${MODERN_REVISIONS.join(', ')})`,
    );
  beModern(session, settings, version);
  return describeDiscover(discover);
}

async function tryModern(
  session: Session,
  settings: NegotiationSettings,
  first: string,
): Promise<Negotiated | undefined> {
  const pinned = settings.protocolVersion !== undefined;
  const stream = session.transport.kind === 'stdio' || session.transport.kind === 'in-memory';
  let version = first;
  for (let attempt = 0; attempt < 2; attempt++) {
    beModern(session, settings, version);
    try {
      const result = (await session.request(
        'server/discover',
        {},
        {
          timeoutMs: stream && !pinned ? settings.probeTimeoutMs : settings.timeoutMs,
        },
      )) as DiscoverResult;
      const supported = Array.isArray(result?.supportedVersions) ? result.supportedVersions : [];
      const chosen = pickModern(supported, settings.protocolVersion);
      if (chosen === undefined) {
        if (pinned)
          throw new NegotiationError(
            `The server's server/discover lists ${JSON.stringify(supported)}, not the pinned ${settings.protocolVersion}`,
          );
        break;
      }
      if (chosen !== version) beModern(session, settings, chosen);
      return describeDiscover(result);
    } catch (error) {
      // -32022 names what the server does speak: retry once with a revision both sides speak.
      if (error instanceof JsonRpcError && error.code === ErrorCode.UnsupportedProtocolVersion) {
        const supported = (error.data as { supported?: unknown } | undefined)?.supported;
        const retry = pickModern(
          Array.isArray(supported) ? supported : [],
          settings.protocolVersion,
        );
        if (retry !== undefined && attempt === 0) {
          version = retry;
          continue;
        }
      }
      // A failed sign-in says nothing about the era: reported as itself.
      if (error instanceof NegotiationError || error instanceof AuthorizationError) throw error;
      if (pinned)
        throw new NegotiationError(
          `The server does not serve protocol revision ${settings.protocolVersion}: server/discover failed: ${describeError(error)} (leave protocolVersion unset to negotiate)`,
          { cause: error },
        );
      if (!isEvidenceOfLegacy(error, stream)) throw error;
      break;
    }
  }
  session.era = undefined;
  session.envelope = undefined;
  // The probe's task-free envelope too: a legacy session's calls carry no envelope at all.
  session.taskFreeEnvelope = undefined;
  return undefined;
}

/**
 * Whether a failed `server/discover` means "a legacy server" (protocol.md §3.1, §7): a JSON-RPC
 * error, or on HTTP a 4xx; on a stream transport, no answer at all. An unreachable server, 401,
 * 403 and 5xx are not evidence of anything and fail the connection.
 */
function isEvidenceOfLegacy(error: unknown, stream: boolean): boolean {
  if (error instanceof JsonRpcError) return true;
  if (error instanceof RequestTimeoutError) return stream;
  if (error instanceof TransportError)
    return (
      error.status !== undefined &&
      error.status >= 400 &&
      error.status < 500 &&
      error.status !== 401 &&
      error.status !== 403
    );
  return false;
}

async function legacy(
  session: Session,
  settings: NegotiationSettings,
  offered: string,
): Promise<Negotiated> {
  session.era = 'legacy';
  session.envelope = undefined;
  session.taskFreeEnvelope = undefined;
  const result = (await session.raw(
    'initialize',
    {
      protocolVersion: offered,
      capabilities: settings.capabilities,
      clientInfo: settings.clientInfo,
    },
    { timeoutMs: settings.timeoutMs },
  )) as { protocolVersion?: unknown } & Negotiated;
  const chosen = result?.protocolVersion;
  if (!isLegacyRevision(chosen))
    throw new NegotiationError(
      `The server answered initialize with protocol version ${JSON.stringify(chosen)}, which this client does not speak (it offered ${offered}; it speaks ${LEGACY_REVISIONS.join(', ')})`,
    );
  if (settings.protocolVersion !== undefined && chosen !== settings.protocolVersion)
    throw new NegotiationError(
      `The server answered initialize with protocol version ${chosen}, not the pinned ${settings.protocolVersion}`,
    );
  session.protocolVersion = chosen;
  session.transport.setProtocolVersion?.(chosen);
  session.notify('notifications/initialized');
  if (settings.standaloneStream) session.transport.openStream?.();
  const description: Negotiated = {
    capabilities: objectOr(result.capabilities),
    ...(result.serverInfo ? { serverInfo: result.serverInfo } : {}),
    ...(typeof result.instructions === 'string' ? { instructions: result.instructions } : {}),
  };
  if (settings.logLevel !== undefined && description.capabilities.logging)
    await session.raw(
      'logging/setLevel',
      { level: settings.logLevel },
      { timeoutMs: settings.timeoutMs },
    );
  return description;
}

function pickModern(supported: readonly unknown[], pinned: string | undefined): string | undefined {
  const spoken = supported.filter((v): v is string => typeof v === 'string' && isModernRevision(v));
  if (pinned !== undefined) return spoken.includes(pinned) ? pinned : undefined;
  return MODERN_REVISIONS.find((v) => spoken.includes(v));
}

function describeDiscover(result: DiscoverResult): Negotiated {
  const serverInfo =
    (result._meta?.[ENVELOPE_META.serverInfo] as Negotiated['serverInfo']) ?? result.serverInfo;
  return {
    capabilities: objectOr(result.capabilities),
    ...(serverInfo ? { serverInfo } : {}),
    ...(typeof result.instructions === 'string' ? { instructions: result.instructions } : {}),
  };
}

function objectOr(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function describeError(error: unknown): string {
  if (error instanceof JsonRpcError) return `${error.message} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}
