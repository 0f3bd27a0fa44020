import type { SampleResult } from '@mcp-fw/core';

// The reference payloads of the conformance suite's server contract.

/** A 1×1 red PNG. */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A minimal WAV file. */
export const WAV_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

/** The input of tools that take no arguments. */
export const NO_ARGUMENTS = { type: 'object', properties: {} };

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The text of a sampling result whose content is one text block; undefined for anything else
 * (a list of blocks, an image, a client that answered nothing usable).
 */
export function sampledText(result: SampleResult | undefined): string | undefined {
  const content = result?.content;
  return content && !Array.isArray(content) && content.type === 'text' ? content.text : undefined;
}
