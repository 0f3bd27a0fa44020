import { Tool, type Context } from '@mcp-fw/core';
import { z } from 'zod';
import { CHANGELOG } from './changelog.js';
import { RELEASE_STEPS, type ReleasePipeline } from './pipeline.js';

const PublishInput = z.object({
  version: z
    .string()
    .regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/)
    .describe('The semantic version to publish, e.g. 1.4.0'),
});

/** The form the user fills before anything is published. */
const Confirmation = z.object({
  confirm: z.boolean().describe('Publish now?'),
  notes: z.string().optional().describe('Release notes to include'),
});

/** Options of {@link Release}. */
export interface ReleaseOptions {
  pipeline: ReleasePipeline;
  /** How long to wait for the user to answer the confirmation form. */
  confirmTimeoutMs: number;
}

/**
 * Release management: every way a tool can talk back to the client while it runs — a form for
 * the user (elicitation), progress, logs, cancellation, the client's model (sampling) and the
 * client's workspaces (roots).
 */
export class Release {
  constructor(private readonly options: ReleaseOptions) {}

  // A long job with a question halfway: a client that can take tasks gets a task it polls
  // (the confirmation then travels through the task); any other client waits on the call.
  @Tool({
    description: 'Publishes a release (tag, build, upload, announce) after the user confirms it',
    input: PublishInput,
    task: { mode: 'optional', pollIntervalMs: 500 },
  })
  async publish_release({ version }: z.infer<typeof PublishInput>, ctx: Context): Promise<string> {
    const answer = await ctx.elicit(`Publish version ${version}?`, Confirmation, {
      timeoutMs: this.options.confirmTimeoutMs,
    });
    if (answer.action !== 'accept' || !answer.content.confirm) {
      const why =
        answer.action === 'accept'
          ? 'did not confirm'
          : answer.action === 'decline'
            ? 'declined'
            : 'cancelled';
      ctx.log.notice(`${version}: not published, the user ${why}`);
      return `Release ${version} was not published: the user ${why}.`;
    }
    const total = RELEASE_STEPS.length;
    for (const [done, step] of RELEASE_STEPS.entries()) {
      // Progress counts the finished steps and names the running one. It is sent as a step
      // starts, not ends: official clients drop a progress notification that arrives in the
      // same read as the response, which a report after the last step would.
      ctx.progress(done, total, `${step} ${version}`);
      ctx.log.debug(`${version}: ${step} started`);
      try {
        await this.options.pipeline.run(step, version, ctx.signal);
      } catch (error) {
        if (!ctx.signal.aborted) throw error;
      }
      // A cancelled call stops between steps; what it returns is never sent.
      if (ctx.signal.aborted)
        return `Release ${version} cancelled after ${done} of ${total} steps.`;
      ctx.log.info(`${version}: ${step} done`);
    }
    const notes = answer.content.notes ? `\nRelease notes: ${answer.content.notes}` : '';
    return `Published ${version} in ${total} steps (${RELEASE_STEPS.join(', ')}).${notes}`;
  }

  @Tool({
    description: "Summarizes the unreleased changelog with the client's model, for an announcement",
    input: z.object({}),
  })
  async summarize_changelog(_: object, ctx: Context): Promise<string> {
    const result = await ctx.sample({
      systemPrompt: 'You write short, friendly release announcements.',
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Summarize in one sentence:\n\n${CHANGELOG}` },
        },
      ],
      maxTokens: 200,
    });
    // From 2025-11-25 the content may be a list of blocks.
    const blocks: { type: string; text?: string }[] = [result?.content ?? []].flat();
    const text = blocks
      .filter((b) => b.type === 'text')
      .map((b) => b.text)
      .join('\n');
    return `Summary (by ${result?.model ?? 'the client model'}): ${text}`;
  }

  @Tool({
    description: 'Lists the workspaces (roots) the client shared with this server',
    input: z.object({}),
  })
  async list_workspaces(_: object, ctx: Context): Promise<string> {
    const roots = await ctx.roots();
    if (roots.length === 0) return 'The client shared no workspaces.';
    const lines = roots.map(
      (r) => `- ${r.name ?? r.uri.split('/').filter(Boolean).pop()}: ${r.uri}`,
    );
    return [`${roots.length} workspace(s):`, ...lines].join('\n');
  }
}
