import { Resource } from '@mcp-fw/core';
import { PNG_BASE64 } from './fixtures.js';

/** Static resources, a template, and a resource clients may subscribe to. */
export class TestResources {
  @Resource('test://static-text', {
    name: 'static-text',
    title: 'Static Text Resource',
    description: 'A static text resource',
    mimeType: 'text/plain',
  })
  staticText() {
    return 'This is the content of the static text resource.';
  }

  @Resource('test://static-binary', {
    name: 'static-binary',
    title: 'Static Binary Resource',
    description: 'A static PNG image',
    mimeType: 'image/png',
  })
  staticBinary() {
    return { blob: PNG_BASE64 };
  }

  @Resource('test://template/{id}/data', {
    name: 'template',
    title: 'Resource Template',
    description: 'JSON data for any id',
    mimeType: 'application/json',
  })
  templateData({ id }: { id: string }) {
    return JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
  }

  @Resource('test://watched-resource', {
    name: 'watched-resource',
    title: 'Watched Resource',
    description: 'A resource to subscribe to',
    mimeType: 'text/plain',
  })
  watched() {
    return 'Watched resource content';
  }
}
