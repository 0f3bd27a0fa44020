import { forEachObject, parseFrame, parseUnescapedFrame } from '../../../jsonrpc/index.js';
import { handOn } from './admission.js';
import { metaOf, servedEnvelope, type Envelope } from './envelope.js';

const NAMESPACE = 'io.modelcontextprotocol/';
const META_KEY = '_meta"';
const QUOTE = 0x22;
const COMMA = 0x2c;
const CLOSE = 0x7d;

/** What was learned from one frame: its envelope members as text, and parsed (frozen). */
interface Learned {
  /** `_meta":{` followed by the members' JSON text, without the closing brace. */
  readonly needle: string;
  readonly members: Readonly<Record<string, unknown>>;
  /** The keys that followed the members in that frame's `_meta` (the official client: `progressToken`). */
  readonly restKeys: readonly string[];
  /**
   * A private, unfrozen object with the members, then a slot for each rest key: a frame whose
   * `_meta` has the same keys gets a spread copy with its own rest values written in. V8 clones
   * such an object's layout in one step and the writes add no property, which is much cheaper
   * than `Object.assign` from the frozen members.
   */
  readonly template: Record<string, unknown>;
  /**
   * The members read and checked as an envelope, on first need: the same for every frame that
   * gets them through the template, unless a rest key could override one of them. `null` when
   * they are not a servable envelope (each such frame is read, and refused, as usual).
   */
  envelope?: Envelope | null;
  /** No rest key is in the envelope's namespace, so the members alone make the envelope. */
  readonly restOutsideEnvelope: boolean;
}

/**
 * Parses a connection's frames, skipping the 2026-07-28 envelope members it has seen before.
 *
 * A client repeats the same envelope members (protocol version, client info, capabilities, log
 * level) in the `_meta` of every request, usually as the same JSON text. Parsing them again is
 * most of what a 2026-07-28 request costs beyond a legacy one: the official client's envelope
 * more than doubles what `JSON.parse` of a `tools/call` costs. So
 * the frame is parsed without that text, and the members parsed the first time (frozen, shared
 * by the requests that repeat them) are put back into its `_meta`. Everything else in `_meta`,
 * such as a `progressToken` that changes on every request, is parsed as usual.
 *
 * The result is the value `parseFrame` gives for the same text; the frame is parsed whole
 * unless every check below proves the members' text can only be the `params._meta` members.
 */
export class EnvelopeMemo {
  #learned?: Learned;
  // Learning costs a serialisation: after a miss it is tried again on the 1st, 2nd, 4th, 8th...
  // miss in a row, so a client whose envelope never repeats does not pay it on every frame.
  #misses = 0;
  #nextLearn = 1;
  parse(text: string): unknown {
    const learned = this.#learned;
    if (learned !== undefined) {
      const value = this.#reuse(text, learned);
      if (value !== undefined) {
        this.#misses = 0;
        this.#nextLearn = 1;
        return value;
      }
    }
    const value = parseFrame(text);
    const envelope = envelopeMembersOf(value);
    if (envelope !== undefined && ++this.#misses >= this.#nextLearn) {
      this.#nextLearn *= 2;
      this.#learn(text, envelope.members, envelope.restKeys);
    }
    return value;
  }

  #reuse(text: string, learned: Learned): unknown {
    // `"_meta"` must open a key (the quote before it), be the only `_meta"` in the text
    // outside the members, and the text must hold no backslash: with no escapes every key is
    // spelled as it reads, so no other `_meta` key can exist and no quote is escaped.
    const at = text.indexOf(META_KEY);
    if (at < 1 || text.charCodeAt(at - 1) !== QUOTE) return undefined;
    const end = at + learned.needle.length;
    // Comparing a slice beats searching for, or startsWith of, the long needle of the official
    // client's envelope: V8 compares equal-length flat strings in bulk.
    if (text.slice(at, end) !== learned.needle) return undefined;
    const next = text.charCodeAt(end);
    // After the members: the end of `_meta`, or a comma and the next member's key. (A trailing
    // comma would be invalid JSON that the shortened text would hide.)
    if (next !== CLOSE && (next !== COMMA || text.charCodeAt(end + 1) !== QUOTE)) return undefined;
    if (text.indexOf(META_KEY, end) !== -1 || text.includes('\\')) return undefined;
    let value: unknown;
    try {
      // `_meta":{` stays; the members (and their comma) go.
      value = parseUnescapedFrame(
        text.slice(0, at + 8) + text.slice(next === COMMA ? end + 1 : end),
      );
    } catch {
      return undefined; // the whole text is parsed again, for its own error
    }
    const meta = paramsMetaOf(value);
    if (meta === undefined) return undefined;
    const params = (value as { params: { _meta: unknown } }).params;
    if (hasRestKeys(meta, learned.restKeys)) {
      params._meta = fromTemplate(learned, meta);
      // The members were read and checked as an envelope once, when first met: the record is
      // built from that (unless a rest key could override one of them).
      const envelope = learned.restOutsideEnvelope ? envelopeOf(learned) : undefined;
      if (envelope) handOn(params, envelope);
    } else {
      params._meta = Object.assign({}, learned.members, meta);
    }
    return value;
  }

  #learn(text: string, members: Record<string, unknown>, restKeys: string[]): void {
    let json: string;
    try {
      json = JSON.stringify(members);
    } catch {
      return; // nested deeper than JSON.stringify's stack: such an envelope is not worth keeping
    }
    const needle = `${META_KEY}:{${json.slice(1, -1)}`;
    // Only text the client wrote exactly so (JSON.stringify's spelling) can be found again.
    if (!text.includes(needle)) return;
    const template: Record<string, unknown> = {};
    for (const key in members) template[key] = members[key];
    for (const key of restKeys) template[key] = undefined;
    const restOutsideEnvelope = restKeys.every((key) => !key.startsWith(NAMESPACE));
    this.#learned = {
      needle,
      restKeys,
      template,
      members: deepFreeze(members),
      restOutsideEnvelope,
    };
  }
}

/** The learned members read and checked as an envelope, once per learned envelope. */
function envelopeOf(learned: Learned): Envelope | undefined {
  if (learned.envelope === undefined) {
    try {
      learned.envelope = servedEnvelope({ _meta: learned.members });
    } catch {
      learned.envelope = null;
    }
  }
  return learned.envelope ?? undefined;
}

function paramsMetaOf(value: unknown): Record<string, unknown> | undefined {
  return metaOf((value as { params?: unknown } | null)?.params);
}

/** Whether `rest`, what the shortened text left in `_meta`, has exactly the learned rest keys, in order. */
function hasRestKeys(rest: Record<string, unknown>, keys: readonly string[]): boolean {
  let n = 0;
  // for-in, not Object.keys: no array per frame.
  for (const key in rest) if (key !== keys[n++]) return false;
  return n === keys.length;
}

/**
 * A frame's `_meta` when `rest` has the learned rest keys: a copy of the template (the members,
 * then those keys) with the frame's own values written in. That is JSON.parse's key order;
 * any other `rest` is merged with `Object.assign({}, members, rest)`, where a member repeated
 * later keeps its first place with its last value, as in JSON.parse.
 */
function fromTemplate(learned: Learned, rest: Record<string, unknown>): Record<string, unknown> {
  const keys = learned.restKeys;
  const meta = { ...learned.template };
  for (let i = 0; i < keys.length; i++) meta[keys[i]!] = rest[keys[i]!];
  return meta;
}

/**
 * The leading run of `io.modelcontextprotocol/` members of `params._meta`, if any, and the
 * keys after them.
 */
function envelopeMembersOf(
  value: unknown,
): { members: Record<string, unknown>; restKeys: string[] } | undefined {
  const meta = paramsMetaOf(value);
  if (meta === undefined) return undefined;
  let members: Record<string, unknown> | undefined;
  const restKeys: string[] = [];
  for (const key in meta) {
    if (restKeys.length === 0 && key.startsWith(NAMESPACE)) {
      (members ??= {})[key] = meta[key];
      continue;
    }
    if (members === undefined) return undefined;
    restKeys.push(key);
  }
  return members && { members, restKeys };
}

function deepFreeze<T>(root: T): T {
  forEachObject(root, (value) => {
    // Already frozen: shared from an earlier envelope, and frozen all the way down.
    if (Object.isFrozen(value)) return false;
    Object.freeze(value);
  });
  return root;
}
