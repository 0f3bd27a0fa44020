import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  connectOfficialClient,
  LEGACY_REVISIONS,
  negotiatedVersion,
  OFFICIAL_CLIENTS,
  type OfficialClient,
} from '../../../packages/core/test/support/official-clients.ts';
import { checkServerLines } from '../../../packages/core/test/support/wire-log.ts';
import { startNwsFixture, type NwsFixture } from './nws-fixture.ts';

const CA_ALERTS = [
  'Active alerts for CA:',
  '',
  'Event: Wind Advisory',
  'Area: Santa Clarita Valley; San Fernando Valley; Western San Gabriel Mountains and Highway 14 Corridor',
  'Severity: Moderate',
  'Description: * WHAT...Northeast winds 20 to 30 mph with gusts up to 50 mph.',
  '',
  '* WHERE...Santa Clarita Valley, San Fernando Valley and the western San Gabriel Mountains.',
  '',
  '* WHEN...Until 10 PM PST this evening.',
  'Instructions: Winds this strong can make driving difficult, especially for high profile vehicles. Use extra caution.',
  '---',
  'Event: Dense Fog Advisory',
  'Area: Coastal Del Norte; Del Norte Interior',
  'Severity: Minor',
  'Description: * WHAT...Visibility one quarter mile or less in dense fog.',
  '',
  '* WHERE...Coastal and interior Del Norte County.',
  'Instructions: No specific instructions provided',
].join('\n');

// Five of the fixture's six periods: the quickstart shows the next five.
const DC_FORECAST = [
  'Forecast for 38.8894,-77.0352 (near Washington, DC):',
  '',
  'Today:',
  'Temperature: 54°F',
  'Wind: 5 to 10 mph NW',
  'Forecast: Sunny, with a high near 54. Northwest wind 5 to 10 mph.',
  '---',
  'Tonight:',
  'Temperature: 38°F',
  'Wind: 5 mph N',
  'Forecast: Mostly clear, with a low around 38. North wind around 5 mph.',
  '---',
  'Sunday:',
  'Temperature: 57°F',
  'Wind: 5 mph S',
  'Forecast: Mostly sunny, with a high near 57. South wind around 5 mph.',
  '---',
  'Sunday Night:',
  'Temperature: 45°F',
  'Wind: 5 mph SE',
  'Forecast: A chance of rain showers after 1am. Mostly cloudy, with a low around 45. Southeast wind around 5 mph. Chance of precipitation is 40%.',
  '---',
  'Monday:',
  'Temperature: 61°F',
  'Wind: 5 to 15 mph SW',
  'Forecast: Rain showers likely. Cloudy, with a high near 61. Southwest wind 5 to 15 mph. Chance of precipitation is 70%.',
].join('\n');

let fixture: NwsFixture;
let client: OfficialClient | undefined;
beforeAll(async () => {
  fixture = await startNwsFixture();
});
afterAll(() => fixture.close());
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe.each(OFFICIAL_CLIENTS)(
  'weather with %s over stdio, against a local NWS fixture',
  (kind) => {
    it.each(LEGACY_REVISIONS)(
      '%s: alerts, forecasts and API failures; every server message is schema-valid',
      async (revision) => {
        fixture.requests.length = 0;
        client = await connectOfficialClient(kind, revision, 'examples/weather', {
          args: ['--base-url', fixture.baseUrl],
        });

        const { tools } = await client.listTools();
        expect(tools.map((t) => [t.name, t.description, t.inputSchema])).toEqual([
          [
            'get_alerts',
            'Get weather alerts for a US state.',
            {
              type: 'object',
              properties: {
                state: { type: 'string', description: 'Two-letter US state code (e.g. CA, NY)' },
              },
              required: ['state'],
            },
          ],
          [
            'get_forecast',
            'Get weather forecast for a location.',
            {
              type: 'object',
              properties: {
                latitude: { type: 'number', description: 'Latitude of the location' },
                longitude: { type: 'number', description: 'Longitude of the location' },
              },
              required: ['latitude', 'longitude'],
            },
          ],
        ]);

        expect(await client.callTool('get_alerts', { state: 'ca' })).toEqual({
          content: [{ type: 'text', text: CA_ALERTS }],
        });
        expect(await client.callTool('get_alerts', { state: 'VT' })).toEqual({
          content: [{ type: 'text', text: 'No active alerts for VT.' }],
        });
        expect(
          await client.callTool('get_forecast', { latitude: 38.88944, longitude: -77.03521 }),
        ).toEqual({
          content: [{ type: 'text', text: DC_FORECAST }],
        });

        expect(await client.callTool('get_alerts', { state: 'XX' })).toEqual({
          content: [
            {
              type: 'text',
              text: '"XX" is not a US state or territory code; use a two-letter code such as CA or NY.',
            },
          ],
          isError: true,
        });
        expect(await client.callTool('get_alerts', { state: 'TX' })).toEqual({
          content: [
            {
              type: 'text',
              text:
                'The National Weather Service API answered 500 Internal Server Error for GET /alerts/active/area/TX: ' +
                'An unexpected problem has occurred. If this error continues, please contact support at nco.ops@noaa.gov.',
            },
          ],
          isError: true,
        });
        expect(await client.callTool('get_forecast', { latitude: 0, longitude: 0 })).toEqual({
          content: [
            {
              type: 'text',
              text:
                'No forecast for 0,0: the National Weather Service covers only US locations. (The National Weather ' +
                'Service API answered 404 Not Found for GET /points/0,0: Unable to provide data for requested point 0,0)',
            },
          ],
          isError: true,
        });

        // Arguments that fail the schema derived from the signature: an isError result naming the
        // argument from 2025-11-25 on, a -32602 error before (the rule changed in that revision).
        const malformed = client.callTool('get_alerts', { state: 42 });
        const invalid = 'Invalid arguments for tool get_alerts: state: must be string';
        if (revision >= '2025-11-25') {
          expect(await malformed).toEqual({
            content: [{ type: 'text', text: invalid }],
            isError: true,
          });
        } else {
          await expect(malformed).rejects.toMatchObject({
            code: -32602,
            message: expect.stringContaining(invalid),
          });
        }

        // Only valid requests reach the API, each with the headers NWS asks for.
        expect(fixture.requests).toEqual(
          [
            '/alerts/active/area/CA',
            '/alerts/active/area/VT',
            '/points/38.8894,-77.0352',
            '/gridpoints/LWX/97,71/forecast',
            '/alerts/active/area/TX',
            '/points/0,0',
          ].map((path) => ({
            method: 'GET',
            path,
            userAgent: 'mcp-fw-weather/0.1.0',
            accept: 'application/geo+json',
          })),
        );

        const wire = client.wire();
        expect(negotiatedVersion(wire)).toBe(revision);
        expect(checkServerLines(wire, revision)).toEqual([]);
      },
    );
  },
);
