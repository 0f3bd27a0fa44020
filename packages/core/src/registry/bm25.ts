/**
 * A small Okapi BM25 index (k1 = 1.2, b = 0.75), written here rather than taken from a library
 * so core keeps no dependency for it: the ranking tool search needs is ~60 lines.
 */

const STOP = new Set(
  'a an and are as at be by for from get i in into is it me my of on or our the this to with'.split(
    ' ',
  ),
);

/** Words of `text`: split on non-letters, `_`, `-` and camelCase, lower-cased, crudely stemmed. */
export function tokens(text: string): string[] {
  const out: string[] = [];
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  for (const raw of spaced.toLowerCase().split(/[^a-z0-9]+/)) {
    if (raw.length === 0 || STOP.has(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

// A light suffix stripper, so the forms of one word meet: "issues" / "issue", "starred" / "star",
// "followers" / "follow", "invitation" / "invite", "reviewers" / "review".
function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  for (const suffix of ['ation', 'ing', 'ed', 'er', 'e']) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  // "starr" (from starred) → "star": a doubled last consonant left by the suffix.
  if (w.length > 3 && w.at(-1) === w.at(-2) && !/[aeiouls]/.test(w.at(-1) as string))
    w = w.slice(0, -1);
  return w;
}

/** One document to index: its key and its fields, each with a weight (repeats its terms). */
export interface Bm25Doc {
  readonly key: string;
  readonly fields: readonly { readonly text: string; readonly weight: number }[];
}

/** BM25 over `docs`; `search` returns keys by descending score (only those matching a term). */
export class Bm25Index {
  readonly #docs: { key: string; tf: Map<string, number>; length: number }[] = [];
  readonly #df = new Map<string, number>();
  readonly #avgLength: number;

  constructor(docs: readonly Bm25Doc[]) {
    let total = 0;
    for (const doc of docs) {
      const tf = new Map<string, number>();
      let length = 0;
      for (const field of doc.fields)
        for (const t of tokens(field.text)) {
          tf.set(t, (tf.get(t) ?? 0) + field.weight);
          length += field.weight;
        }
      for (const t of tf.keys()) this.#df.set(t, (this.#df.get(t) ?? 0) + 1);
      this.#docs.push({ key: doc.key, tf, length });
      total += length;
    }
    this.#avgLength = docs.length > 0 ? total / docs.length : 1;
  }

  search(query: string, limit: number): { key: string; score: number }[] {
    const terms = [...new Set(tokens(query))];
    const n = this.#docs.length;
    const hits: { key: string; score: number }[] = [];
    for (const doc of this.#docs) {
      let score = 0;
      for (const t of terms) {
        const f = doc.tf.get(t);
        if (!f) continue;
        const df = this.#df.get(t) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * doc.length) / this.#avgLength));
      }
      if (score > 0) hits.push({ key: doc.key, score });
    }
    hits.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : 1));
    return hits.slice(0, limit);
  }
}
