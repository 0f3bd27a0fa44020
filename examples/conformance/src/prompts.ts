import { image, Prompt } from '@mcp-fw/core';
import { z } from 'zod';
import { PNG_BASE64 } from './fixtures.js';

const TwoArguments = z.object({
  arg1: z.string().describe('First test argument'),
  arg2: z.string().describe('Second test argument'),
});
const ResourceArgument = z.object({
  resourceUri: z.string().describe('URI of the resource to embed'),
});

/** Prompts with and without arguments, embedding a resource or an image. */
export class TestPrompts {
  @Prompt({ name: 'test_simple_prompt', description: 'A simple prompt without arguments' })
  simple() {
    return 'This is a simple prompt for testing.';
  }

  @Prompt({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two required arguments',
    input: TwoArguments,
    complete: { arg1: ['paris', 'park', 'party'] },
  })
  withArguments({ arg1, arg2 }: z.infer<typeof TwoArguments>) {
    return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
  }

  @Prompt({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource',
    input: ResourceArgument,
  })
  withEmbeddedResource({ resourceUri }: z.infer<typeof ResourceArgument>) {
    const text = 'Embedded resource content for testing.';
    const resource = { uri: resourceUri, mimeType: 'text/plain', text };
    return [
      { role: 'user', content: { type: 'resource', resource } },
      'Please process the embedded resource above.',
    ];
  }

  @Prompt({ name: 'test_prompt_with_image', description: 'A prompt that includes an image' })
  withImage() {
    return [image(PNG_BASE64, 'image/png'), 'Please analyze the image above.'];
  }
}
