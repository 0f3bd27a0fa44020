// Why 2026-07-28 listen streams live in the shared Durable Object (`mcp-fw:tasks`) and not in
// the isolate that took the `subscriptions/listen` request: a Worker isolate refuses to let one
// request write to a stream another request holds. A list change raised by a later request (a
// tool that adds a tool) wrote the notification into the listen request's response stream,
// which resolved that request's pending read from another request's context: workerd cancels
// such continuations ("A promise was resolved or rejected from a different request context"),
// and cancels the listen request itself as hung, since it waits on nothing of its own. In a
// Durable Object every request shares the object's context, so a stream held there may be written
// by any request the object serves. A list change raised in an isolate (where the stateless
// `tools/call` ran) or in a legacy session's object is told to the shared object by that
// request, as a notice the object turns into `list_changed` for its listen streams.

import type { Servable } from '@mcp-fw/core/transport';

/** Marks the Worker's own notice to the shared object; stripped from every client request. */
export const INTERNAL_HEADER = 'x-mcp-fw-worker-notice';
const NOTICE_URL = 'https://mcp-fw.internal/list-changed';

/** The lists a notice may name, as McpFwServer's member controls are called. */
export type NoticeList = 'tools' | 'prompts' | 'resources';

interface Lists {
  readonly tools?: readonly { readonly name: string }[];
  readonly prompts?: readonly { readonly name: string }[];
  readonly resources?: readonly { readonly uri?: string }[];
  readonly templates?: readonly { readonly uriTemplate?: string }[];
}

const namesOf = (members: readonly object[] | undefined, key: string) =>
  (members ?? []).map((m) => (m as Record<string, unknown>)[key]).join('\n');

/** The lists whose members differ between two registries (a server's before and after a call). */
export function changedLists(before: unknown, after: unknown): NoticeList[] {
  const a = before as Lists;
  const b = after as Lists;
  const changed: NoticeList[] = [];
  if (namesOf(a.tools, 'name') !== namesOf(b.tools, 'name')) changed.push('tools');
  if (namesOf(a.prompts, 'name') !== namesOf(b.prompts, 'name')) changed.push('prompts');
  if (
    namesOf(a.resources, 'uri') !== namesOf(b.resources, 'uri') ||
    namesOf(a.templates, 'uriTemplate') !== namesOf(b.templates, 'uriTemplate')
  )
    changed.push('resources');
  return changed;
}

/** The request that tells the shared object `lists` changed. */
export function listChangedNotice(lists: readonly NoticeList[]): Request {
  return new Request(NOTICE_URL, {
    method: 'POST',
    headers: { [INTERNAL_HEADER]: '1', 'content-type': 'application/json' },
    body: JSON.stringify(lists),
  });
}

/** The lists a notice names, or undefined when `request` is not the Worker's notice. */
export async function isListChangedNotice(request: Request): Promise<NoticeList[] | undefined> {
  if (request.headers.get(INTERNAL_HEADER) !== '1' || request.url !== NOTICE_URL) return undefined;
  const lists: unknown = await request.json();
  return Array.isArray(lists)
    ? lists.filter((l): l is NoticeList => l === 'tools' || l === 'prompts' || l === 'resources')
    : [];
}

/** Tells the listen streams `server` holds that `lists` changed. */
export function tellListChanged(server: Servable, lists: readonly NoticeList[]): Response {
  const controls = server as unknown as Partial<Record<NoticeList, { changed?(): void }>>;
  for (const list of lists) controls[list]?.changed?.();
  return new Response(null, { status: 204 });
}

/** `request` without the notice header: a client cannot pass for the Worker. */
export function withoutInternalHeader(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.delete(INTERNAL_HEADER);
  return new Request(request, { headers });
}
