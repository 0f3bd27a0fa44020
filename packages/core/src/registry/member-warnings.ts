import type { Members } from './scan.js';

interface Described {
  readonly description?: string;
  readonly origin: string;
}

function missing(member: Described): boolean {
  return typeof member.description !== 'string' || member.description.trim() === '';
}

/**
 * One warning per member without a description. Such a member works, but the model sees only
 * its name and must guess what it does and when to call it; nothing else would tell the author.
 */
export function undescribedMembers(members: Members): string[] {
  const warnings: string[] = [];
  for (const tool of members.tools) {
    if (missing(tool)) {
      warnings.push(
        `warning: tool "${tool.name}" (${tool.origin}) has no description, so the model must guess from its name ` +
          `what it does. Fix: @Tool('What it does and when to use it'), or @Tool({ description: '...' }).`,
      );
    }
  }
  for (const prompt of members.prompts) {
    if (missing(prompt)) {
      warnings.push(
        `warning: prompt "${prompt.name}" (${prompt.origin}) has no description, so clients list it by name only. ` +
          `Fix: @Prompt('What it writes'), or @Prompt({ description: '...' }).`,
      );
    }
  }
  for (const resource of [...members.resources, ...members.templates]) {
    // A view is read by the host to render a tool's result, not by the model: no description needed.
    if ('view' in resource && resource.view) continue;
    if (missing(resource)) {
      const uri = 'uri' in resource ? resource.uri : resource.uriTemplate;
      warnings.push(
        `warning: resource ${uri} (${resource.origin}) has no description, so the model must guess what it holds. ` +
          `Fix: @Resource('${uri}', { description: '...' }).`,
      );
    }
  }
  return warnings;
}
