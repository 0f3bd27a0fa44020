import { audio, embeddedResource, image, text, Tool, UserError } from '@mcp-fw/core';
import { PNG_BASE64, WAV_BASE64 } from './fixtures.js';

/** Tools that answer with one kind of content each, or fail on purpose. */
export class ContentTools {
  @Tool({ name: 'test_simple_text', description: 'Returns simple text content' })
  simpleText() {
    return 'This is a simple text response for testing.';
  }

  @Tool({ name: 'test_image_content', description: 'Returns image content (a 1x1 red PNG)' })
  imageContent() {
    return image(PNG_BASE64, 'image/png');
  }

  @Tool({ name: 'test_audio_content', description: 'Returns audio content (a minimal WAV file)' })
  audioContent() {
    return audio(WAV_BASE64, 'audio/wav');
  }

  @Tool({ name: 'test_embedded_resource', description: 'Returns an embedded text resource' })
  embeddedResource() {
    return embeddedResource({
      uri: 'test://embedded-resource',
      mimeType: 'text/plain',
      text: 'This is an embedded resource content.',
    });
  }

  @Tool({
    name: 'test_multiple_content_types',
    description: 'Returns text, image and a resource together',
  })
  multipleContentTypes() {
    return [
      text('Multiple content types test:'),
      image(PNG_BASE64, 'image/png'),
      embeddedResource({
        uri: 'test://mixed-content-resource',
        mimeType: 'application/json',
        text: JSON.stringify({ test: 'data', value: 123 }),
      }),
    ];
  }

  @Tool({ name: 'test_error_handling', description: 'Always fails, as a tool execution error' })
  errorHandling(): never {
    throw new UserError('This tool intentionally returns an error for testing');
  }
}
