// Yours to edit: `mcp-fw openapi` wrote this file once and never overwrites it. Override a
// method of PetsGenerated (pets.gen.ts) to change what its tool does, re-decorate it to
// rename or describe it, or add tools of your own. After the document changes, run the
// command again: the .gen.ts files follow it, and tsc names any edit that no longer fits.
import { type Context, Resource } from '@mcp-fw/core';
import { PetsGenerated } from './pets.gen.js';

/** The pets operations of Swagger Petstore 1.0.0, as tools. */
export class Pets extends PetsGenerated {
  // An edit of this example: one pet is also a resource a client can read on its own, as
  // runtime mode's route map makes it (the generated get_pet tool stays).
  /** One pet of the store, by id. */
  @Resource('openapi://get_pet/{id}', { name: 'pet', mimeType: 'application/json' })
  async pet({ id }: { id: string }, ctx: Context): Promise<string> {
    return JSON.stringify(await this.api.get_pet({ id: Number(id) }, ctx));
  }
}
