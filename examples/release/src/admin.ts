import { Tool, type McpFwServer } from '@mcp-fw/core';
import { z } from 'zod';

/** Dangerous tools, offered only after `enable_admin_tools`. */
export class AdminTools {
  @Tool({
    description: 'Withdraws a published release from installation',
    input: z.object({ version: z.string().describe('The version to yank') }),
    annotations: { destructiveHint: true },
  })
  yank_release({ version }: { version: string }): string {
    return `Yanked ${version}: it is no longer offered for installation.`;
  }

  @Tool({
    description: 'Replaces the key releases are signed with',
    input: z.object({}),
    annotations: { destructiveHint: true },
  })
  rotate_signing_key(): string {
    return 'Rotated the signing key; the next release is signed with the new key.';
  }
}

/**
 * Adds and removes {@link AdminTools} while the server runs; connected clients are told with
 * `notifications/tools/list_changed`. It changes the server it belongs to, so it is given that
 * server once it exists: `server.add(new AdminSwitch(server))`.
 */
export class AdminSwitch {
  #added: string[] = [];

  constructor(private readonly server: McpFwServer) {}

  @Tool({
    description: 'Offers the admin tools (yank_release, rotate_signing_key)',
    input: z.object({}),
  })
  enable_admin_tools(): string {
    if (this.#added.length) return `Admin tools are already enabled: ${this.#added.join(', ')}.`;
    const before = new Set(this.server.tools.names());
    this.server.add(new AdminTools());
    this.#added = this.server.tools.names().filter((name) => !before.has(name));
    return `Enabled admin tools: ${this.#added.join(', ')}.`;
  }

  @Tool({ description: 'Withdraws the admin tools again', input: z.object({}) })
  disable_admin_tools(): string {
    if (!this.#added.length) return 'Admin tools are not enabled.';
    const removed = this.#added.filter((name) => this.server.tools.remove(name));
    this.#added = [];
    return `Disabled admin tools: ${removed.join(', ')}.`;
  }
}
