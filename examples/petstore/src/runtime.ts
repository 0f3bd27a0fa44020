import type { McpFwServer } from '@mcp-fw/core';
import { fromOpenAPI } from '@mcp-fw/openapi';

/**
 * Runtime mode: petstore.yaml served by `fromOpenAPI` as it is read, no code per operation.
 * One pet by id is also a resource template (openapi://get_pet/{id}) a client can read on its
 * own; listing (it takes filters), adding and deleting stay tools a model calls.
 */
export function runtimeServer(spec: string, baseUrl: string): Promise<McpFwServer> {
  return fromOpenAPI(spec, {
    baseUrl,
    routeMaps: [{ methods: ['GET'], pattern: /\{/, type: 'template' }],
    names: {
      'find pet by id': 'get_pet',
      findPets: 'list_pets',
      addPet: 'add_pet',
      deletePet: 'delete_pet',
    },
    server: { name: 'petstore', version: '0.1.0' },
  });
}
