/** One server-sent event. `data` must not contain newlines (JSON frames never do). */
export function sseEvent(data: string, id?: string, event = 'message'): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${data}\n\n`;
}

/**
 * The 2025-11-25 priming event: an id with empty data, so a client whose connection drops
 * before any message can still resume; `retry` tells it how soon to reconnect.
 */
export function primingEvent(id: string, retryMs?: number): string {
  return `id: ${id}\n${retryMs === undefined ? '' : `retry: ${retryMs}\n`}data: \n\n`;
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  // Proxies such as nginx buffer responses unless told not to.
  'x-accel-buffering': 'no',
} as const;
