import { createServer, type McpFwServer } from '@mcp-fw/core';
import { NWS_API_BASE, NwsClient } from './nws-client.js';
import { schemas } from './schemas.gen.js';
import { Weather } from './weather.js';

/**
 * The weather server, talking to the NWS API at `baseUrl`. Also the default export, so
 * `mcp-fw dev examples/weather` and `mcp-fw inspect examples/weather` serve it against the real API.
 */
export default function createWeatherServer(baseUrl: URL = new URL(NWS_API_BASE)): McpFwServer {
  return createServer({
    name: 'weather',
    version: '0.1.0',
    instructions:
      'US weather from the National Weather Service. get_alerts takes a two-letter state code; ' +
      'get_forecast takes a latitude and longitude inside the US.',
    providers: [new Weather(new NwsClient(baseUrl))],
    // Read from Weather's signatures and JSDoc by `npm run schemas` (mcp-fw-schemas).
    schemas,
  });
}
