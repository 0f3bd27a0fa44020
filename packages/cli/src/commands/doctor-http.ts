/** One check of `mcp-fw auth doctor`: what was checked, whether it passed, and the fix if not. */
export interface DoctorCheck {
  readonly name: string;
  readonly ok: boolean;
  /** What was found (on success) or what is wrong (on failure). */
  readonly detail: string;
  readonly fix?: string;
  /** A warning: reported with its fix, not counted as a failure. */
  readonly warning?: boolean;
}

/** A JSON object, as the documents the doctor reads are. */
export type Json = Record<string, unknown>;

/** What one GET of a JSON document found: its status, and the object on a 200. */
export interface JsonFetch {
  readonly status: number;
  readonly json?: Json;
  readonly response?: Response;
  readonly error?: string;
}

/** GETs `url` as JSON; never throws (an unreachable URL is status 0 with the error). */
export async function getJson(
  url: string,
  fetchFn: typeof fetch,
  headers: Record<string, string> = {},
): Promise<JsonFetch> {
  try {
    const response = await fetchFn(url, {
      headers: { accept: 'application/json', ...headers },
      signal: AbortSignal.timeout(5_000),
    });
    const text = await response.text();
    let json: Json | undefined;
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        json = parsed as Json;
    } catch {
      // not JSON: reported by the caller
    }
    // Only a 200 is a document: an error body is JSON too.
    return { status: response.status, json: response.status === 200 ? json : undefined, response };
  } catch (error) {
    return { status: 0, error: (error as Error).message };
  }
}

/** Why a {@link getJson} found no document, in a few words. */
export function found(result: JsonFetch): string {
  if (result.status === 0) return `unreachable (${result.error})`;
  if (result.status !== 200) return `HTTP ${result.status}`;
  return 'not a JSON object';
}

/**
 * An `initialize` POST as a client would send it, with `headers` added: what the doctor sends
 * the MCP endpoint to see its challenge, and with a token to see whether tokens can be checked.
 */
export function initializeRequest(headers: Record<string, string>, timeoutMs: number): RequestInit {
  return {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'mcp-fw auth doctor', version: '1' },
      },
    }),
    signal: AbortSignal.timeout(timeoutMs),
  };
}
