import { createClientPeer, type ChannelSink } from '@mcp-fw/core/transport';
import { fetchLists, handshake, type ServerLists } from '../client/lists.js';
import type { InitializeResult } from '../client/wire.js';
import type { ChildLink } from './child-link.js';

/** What a child serves: its lists, and its `initialize` answer (for sessions opened while down). */
export interface Probe {
  readonly lists: ServerLists;
  readonly initializeResult: InitializeResult;
  /** The `skills/list` entries (digests included) of a server declaring the Skills extension. */
  readonly skills: readonly unknown[];
}

const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/**
 * Asks a child what it serves, on a connection of its own (the supervisor's, not a client's),
 * so reloads can tell which lists changed by comparing what clients would be sent.
 */
export async function probe(link: ChildLink, s: number): Promise<Probe> {
  let sink: ChannelSink | undefined;
  const peer = createClientPeer({
    start: (started) => void (sink = started),
    send: (frame) => link.send({ t: 'in', s, f: frame, o: 0 }),
    close: async () => link.close(s, 0),
  });
  link.open(
    s,
    {
      out: (frame) => sink?.frame(frame),
      settle: () => {},
      closed: () => peer.abandon('the server closed the connection'),
    },
    'legacy',
  );
  void link.exited.then(() => peer.abandon('the server process exited'));
  try {
    const initializeResult = await handshake(peer);
    const extensions = initializeResult.capabilities?.extensions as
      | Record<string, unknown>
      | undefined;
    const [lists, skills] = await Promise.all([
      fetchLists(peer),
      extensions?.[SKILLS_EXTENSION] ? fetchSkills(peer) : [],
    ]);
    return { initializeResult, lists, skills };
  } finally {
    await peer.close();
  }
}

/** Every `skills/list` entry, following `nextCursor`. */
async function fetchSkills(peer: ReturnType<typeof createClientPeer>): Promise<unknown[]> {
  const skills: unknown[] = [];
  let cursor: string | undefined;
  do {
    const page = (await peer.request('skills/list', cursor === undefined ? {} : { cursor })) as {
      readonly skills?: unknown[];
      readonly nextCursor?: string;
    };
    skills.push(...(page.skills ?? []));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return skills;
}
