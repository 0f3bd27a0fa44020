/**
 * The legacy-family revisions served through `initialize`, newest first.
 *
 * @example
 * ```ts
 * for (const protocolVersion of LEGACY_REVISIONS) await connectTestClient(server, { protocolVersion });
 * ```
 */
export const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export type LegacyRevision = (typeof LEGACY_REVISIONS)[number];
export const LATEST_LEGACY: LegacyRevision = LEGACY_REVISIONS[0];

export function isLegacyRevision(value: unknown): value is LegacyRevision {
  return (LEGACY_REVISIONS as readonly unknown[]).includes(value);
}

/** What each revision's wire can carry (protocol.md §2.3); handlers never see these. */
export interface RevisionFeatures {
  readonly batching: boolean;
  readonly toolAnnotations: boolean;
  readonly audio: boolean;
  /** title, outputSchema, structuredContent, resource_link, _meta on tools. */
  readonly structured: boolean;
  readonly icons: boolean;
  /** Invalid tool arguments are an `isError` result instead of a -32602 error. */
  readonly validationAsToolError: boolean;
  /** `notifications/progress` may carry `message`; the `completions` capability exists. */
  readonly progressMessage: boolean;
  readonly completions: boolean;
  /** `elicitation/create` (form mode). */
  readonly elicitation: boolean;
  /** URL-mode elicitation, sampling with tools. */
  readonly urlElicitation: boolean;
  readonly samplingTools: boolean;
}

const FEATURES = new Map<string, RevisionFeatures>(
  LEGACY_REVISIONS.map((r) => [
    r,
    Object.freeze({
      batching: r === '2025-03-26',
      toolAnnotations: r >= '2025-03-26',
      audio: r >= '2025-03-26',
      structured: r >= '2025-06-18',
      icons: r >= '2025-11-25',
      validationAsToolError: r >= '2025-11-25',
      progressMessage: r >= '2025-03-26',
      completions: r >= '2025-03-26',
      elicitation: r >= '2025-06-18',
      urlElicitation: r >= '2025-11-25',
      samplingTools: r >= '2025-11-25',
    }),
  ]),
);

// 2026-07-28 carries everything the newest legacy revision does, except batches.
FEATURES.set('2026-07-28', Object.freeze({ ...FEATURES.get(LATEST_LEGACY)!, batching: false }));

export function featuresOf(revision: string): RevisionFeatures {
  return FEATURES.get(revision) ?? FEATURES.get(LATEST_LEGACY)!;
}
