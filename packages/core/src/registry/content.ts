// MCP content blocks and the helpers that build them. Tools return these as is, inside arrays,
// or let the normaliser wrap plain values.
import { base64Of } from './base64.js';

/** Hints on a content block: who it is for, how important, when it last changed. */
export interface Annotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

/** A text content block; {@link text} builds one. */
export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}
/** An image content block (base64 `data`); {@link image} builds one. */
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}
/** An audio content block (base64 `data`); {@link audio} builds one. */
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}
/** The contents of a resource: text, or a base64 `blob`. */
export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: Record<string, unknown> }
  | { uri: string; mimeType?: string; blob: string; _meta?: Record<string, unknown> };
/** A resource embedded in a result; {@link embeddedResource} builds one. */
export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}
/** A link to a resource the client may read; {@link resourceLink} builds one. */
export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}
/** Any content block a tool result or prompt message carries. */
export type ContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | EmbeddedResource
  | ResourceLink;

/** What a tools/call answers, before era-specific fields are applied. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

export function isContentBlock(value: unknown): value is ContentBlock {
  return (
    typeof value === 'object' &&
    value !== null &&
    CONTENT_TYPES.has((value as { type?: unknown }).type as string)
  );
}

function base64(data: Uint8Array | string): string {
  return typeof data === 'string' ? data : base64Of(data);
}

/**
 * A text content block.
 * @example `return [text('Done.'), image(png, 'image/png')];`
 */
export function text(value: string, annotations?: Annotations): TextContent {
  return annotations ? { type: 'text', text: value, annotations } : { type: 'text', text: value };
}

/**
 * An image content block from bytes (encoded for you) or a base64 string.
 * @example `return image(await readFile('chart.png'), 'image/png');`
 */
export function image(data: Uint8Array | string, mimeType: string): ImageContent {
  return { type: 'image', data: base64(data), mimeType };
}

/**
 * An audio content block from bytes or a base64 string (2025-03-26 and later).
 * @example `return audio(wavBytes, 'audio/wav');`
 */
export function audio(data: Uint8Array | string, mimeType: string): AudioContent {
  return { type: 'audio', data: base64(data), mimeType };
}

/**
 * A link to a resource the client may read (2025-06-18 and later).
 * @example `return resourceLink({ uri: 'file:///logs/today', name: 'today.log' });`
 */
export function resourceLink(link: Omit<ResourceLink, 'type'>): ResourceLink {
  return { type: 'resource_link', ...link };
}

/**
 * A resource embedded in the result, from text or bytes.
 * @example `return embeddedResource({ uri: 'mem://report', mimeType: 'text/csv', text: csv });`
 */
export function embeddedResource(
  resource: { uri: string; mimeType?: string } & ({ text: string } | { bytes: Uint8Array }),
): EmbeddedResource {
  const { uri, mimeType } = resource;
  const body = 'text' in resource ? { text: resource.text } : { blob: base64(resource.bytes) };
  return { type: 'resource', resource: mimeType ? { uri, mimeType, ...body } : { uri, ...body } };
}
