import type { Peer } from '../../jsonrpc/index.js';
import type { EventStore } from './event-store.js';
import type { EventStreamSink, HttpRequestView, HttpResponder } from './exchange.js';
import { accepts, BAD_REQUEST, sendError, sendStoreDown } from './responses.js';
import { SSE_HEADERS, sseEvent } from './sse.js';
import { SESSION_HEADER, type Session, type StreamableSessions } from './streamable-sessions.js';
import { isAnswer, StreamTail } from './stream-tail.js';
import { headerMap } from './header-map.js';

/**
 * A GET: opens the session's standalone SSE stream (what the server sends unasked), or, with
 * `Last-Event-ID`, resumes a stream the client lost: the events it missed from the event store,
 * then the stream itself if it is still running (here, or on another instance of a shared
 * session).
 */
export class SessionStream {
  constructor(
    private readonly sessions: StreamableSessions,
    private readonly store: EventStore | undefined,
  ) {}

  async handle(req: HttpRequestView, res: HttpResponder, peer: Peer): Promise<void> {
    // Without a session there is nothing to stream: 2026-07-28 has no GET at all.
    if (req.header(SESSION_HEADER) === undefined)
      return sendError(res, 405, BAD_REQUEST, 'Method not allowed.', { allow: 'POST' });
    if (!accepts(req.header('accept'), 'text/event-stream')) {
      return sendError(
        res,
        406,
        BAD_REQUEST,
        'Not Acceptable: Accept must include text/event-stream',
      );
    }
    const session = await this.sessions.ofRequest(req, res, peer);
    if (!session) return;
    const headers = headerMap(SSE_HEADERS, undefined, SESSION_HEADER, session.channel.id);
    const lastEventId = req.header('last-event-id');
    if (lastEventId !== undefined && this.store) {
      const resumed = await this.#resume(session, lastEventId, res, headers);
      if (resumed) return;
    }
    if (session.channel.hasStandalone) {
      return sendError(
        res,
        409,
        BAD_REQUEST,
        'Conflict: this session already has a standalone SSE stream',
      );
    }
    const shared = this.sessions.shared;
    if (shared) {
      try {
        await shared.hold(session.channel.id);
      } catch (error) {
        return sendStoreDown(res, error);
      }
    }
    session.channel.openStandalone(res.stream(headers));
  }

  /**
   * Resumes the stream `lastEventId` belongs to; `false` when it is not one of this session's
   * (then the GET opens the standalone stream as if no id had been sent).
   */
  async #resume(
    session: Session,
    lastEventId: string,
    res: HttpResponder,
    headers: Record<string, string>,
  ): Promise<boolean> {
    const store = this.store!;
    const shared = this.sessions.shared;
    let missed: Awaited<ReturnType<EventStore['after']>>;
    let tail: StreamTail | undefined;
    try {
      tail = await this.#tailOf(session, lastEventId);
      missed = await store.after(lastEventId);
    } catch (error) {
      tail?.stop();
      sendStoreDown(res, error);
      return true;
    }
    // Only this session's own streams resume here; another's event id is as unknown as a made-up one.
    if (!missed?.streamId.startsWith(`${session.channel.id}_`)) {
      tail?.stop();
      return false;
    }
    if (missed.streamId === session.channel.standaloneId && shared) {
      // Taken over before the log is read again below: events the previous holder keeps
      // until it learns of it are in the log by then, and none is kept twice.
      try {
        await shared.hold(session.channel.id);
        missed = (await store.after(lastEventId)) ?? missed;
      } catch (error) {
        tail?.stop();
        sendStoreDown(res, error);
        return true;
      }
    }
    const sink: EventStreamSink = res.stream(headers);
    for (const { id, frame } of missed.frames) sink.write(sseEvent(frame, id));
    const live = session.channel.stream(missed.streamId);
    if (live) live.attach(sink);
    else if (missed.streamId === session.channel.standaloneId) session.channel.openStandalone(sink);
    else if (tail) {
      const last = missed.frames.at(-1);
      tail.pipe(sink, last?.id ?? lastEventId, last !== undefined && isAnswer(last.frame));
      return true;
    } else sink.end();
    tail?.stop();
    return true;
  }

  /**
   * For a `Last-Event-ID` of a shared session's request stream that is not running here: hears
   * its live frames from the instance running it, subscribed before the stored ones are read.
   */
  async #tailOf(session: Session, lastEventId: string): Promise<StreamTail | undefined> {
    const shared = this.sessions.shared;
    if (!shared) return undefined;
    const streamId = lastEventId.slice(0, lastEventId.lastIndexOf(':'));
    const { channel } = session;
    if (!streamId.startsWith(`${channel.id}_`) || streamId === channel.standaloneId)
      return undefined;
    if (channel.stream(streamId)) return undefined;
    return StreamTail.open((listener) => shared.tail(streamId, listener));
  }
}
