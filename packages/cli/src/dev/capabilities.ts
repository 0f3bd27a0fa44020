/**
 * Widens the capabilities a dev server announces to every list, each with `listChanged`: a
 * reload may add the first prompt or resource, and clients only use what was announced at
 * connect time (the SDK refuses `prompts/list` otherwise). mcp-fw servers answer every list
 * method, so an empty list is all a client sees until then.
 */
export function widenCapabilities(result: {
  readonly [member: string]: unknown;
}): Record<string, unknown> {
  const capabilities = (result.capabilities ?? {}) as Readonly<Record<string, object | undefined>>;
  return {
    ...result,
    capabilities: {
      ...capabilities,
      logging: capabilities.logging ?? {},
      tools: { ...capabilities.tools, listChanged: true },
      prompts: { ...capabilities.prompts, listChanged: true },
      resources: { subscribe: true, ...capabilities.resources, listChanged: true },
    },
  };
}
