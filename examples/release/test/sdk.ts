import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  OfficialClient,
  OfficialClientKind,
} from '../../../packages/core/test/support/official-clients.ts';
import { patience } from '../../../test-support/patience.ts';

// The few calls whose spelling differs between the two official SDK generations.

const V1_NOTIFICATIONS = {
  'notifications/message': LoggingMessageNotificationSchema,
  'notifications/tools/list_changed': ToolListChangedNotificationSchema,
} as const;

/** Collects the params of every `method` notification the client's SDK delivers. */
export function collect(
  client: OfficialClient,
  kind: OfficialClientKind,
  method: keyof typeof V1_NOTIFICATIONS,
): any[] {
  const received: any[] = [];
  const handler = (notification: { params?: unknown }) =>
    void received.push(notification.params ?? {});
  if (kind === '@modelcontextprotocol/client 2.x')
    client.raw.setNotificationHandler(method, handler);
  else client.raw.setNotificationHandler(V1_NOTIFICATIONS[method], handler);
  return received;
}

/** `tools/call` with the SDK's own progress token and `onprogress` callback. */
export function callWithProgress(
  client: OfficialClient,
  kind: OfficialClientKind,
  name: string,
  args: Record<string, unknown>,
  onprogress: (progress: { progress: number; total?: number; message?: string }) => void,
): Promise<any> {
  const params = { name, arguments: args };
  return kind === '@modelcontextprotocol/client 2.x'
    ? client.raw.callTool(params, { onprogress })
    : client.raw.callTool(params, undefined, { onprogress });
}

/** Waits until `done()` holds, failing with `what` after a deadline (no timing assertions). */
export async function until(done: () => boolean, what: string, deadlineMs = 5000): Promise<void> {
  const deadline = Date.now() + patience(deadlineMs);
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
