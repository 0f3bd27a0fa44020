import { createServer, type McpServer } from '@mcp-fw/core';
import { NwsClient } from './nws-client.js';
import { Weather } from './weather.js';

/** The weather server, talking to the NWS API at `baseUrl`. */
export function createWeatherServer(baseUrl: URL): McpServer {
  return createServer({
    name: 'weather',
    version: '0.1.0',
    instructions:
      'US weather from the National Weather Service. get_alerts takes a two-letter state code; ' +
      'get_forecast takes a latitude and longitude inside the US.',
    providers: [new Weather(new NwsClient(baseUrl))],
  });
}
