import { MODERN_REVISIONS } from './modern/envelope.js';

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
  /** The experimental tasks of core (`params.task`, tasks/get, tasks/result, …); not 2026-07-28, where tasks are an extension. */
  readonly coreTasks: boolean;
}

/** The legacy revision each feature first appeared in; absent: every revision has it. */
const SINCE: Readonly<Record<keyof RevisionFeatures, LegacyRevision | undefined>> = {
  batching: undefined,
  toolAnnotations: '2025-03-26',
  audio: '2025-03-26',
  structured: '2025-06-18',
  icons: '2025-11-25',
  validationAsToolError: '2025-11-25',
  progressMessage: '2025-03-26',
  completions: '2025-03-26',
  elicitation: '2025-06-18',
  urlElicitation: '2025-11-25',
  samplingTools: '2025-11-25',
  coreTasks: '2025-11-25',
};

/** The first revision with `feature`, as named in "needs … or later" messages. */
export function sinceOf(feature: keyof RevisionFeatures): string {
  return SINCE[feature] ?? LEGACY_REVISIONS[LEGACY_REVISIONS.length - 1];
}

const FEATURES = new Map<string, RevisionFeatures>(
  LEGACY_REVISIONS.map((r) => {
    const features = {} as Record<keyof RevisionFeatures, boolean>;
    for (const [feature, since] of Object.entries(SINCE))
      features[feature as keyof RevisionFeatures] = since === undefined || r >= since;
    // Batches were added in 2025-03-26 and removed again in 2025-06-18.
    features.batching = r === '2025-03-26';
    return [r, Object.freeze(features as RevisionFeatures)];
  }),
);

// The stateless revisions carry everything the newest legacy revision does, except batches.
for (const revision of MODERN_REVISIONS)
  FEATURES.set(
    revision,
    Object.freeze({ ...FEATURES.get(LATEST_LEGACY)!, batching: false, coreTasks: false }),
  );

export function featuresOf(revision: string): RevisionFeatures {
  return FEATURES.get(revision) ?? FEATURES.get(LATEST_LEGACY)!;
}
