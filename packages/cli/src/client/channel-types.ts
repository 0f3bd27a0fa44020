import type { McpServer } from '@mcp-fw/core';

// @mcp-fw/core keeps its transport interface internal; these derive it from `connect`, so the
// CLI's own channels are checked against the real thing.

/** What a transport gives a server connection: whole frames in and out. */
export type Channel = Parameters<McpServer['connect']>[0];
/** Where a channel delivers inbound frames. */
export type ChannelSink = Parameters<Channel['start']>[0];
/** Which inbound frame an outbound one belongs to. */
export type FrameRoute = NonNullable<Parameters<Channel['send']>[1]>;
/** How a connection decides its protocol era. */
export type EraMode = Parameters<McpServer['connect']>[1];
