import { Tool, UserError, type Context } from '@mcp-fw/core';
import { formatAlert, formatPeriod } from './format.js';
import { NwsError, type NwsClient } from './nws-client.js';
import type { AlertCollection, Forecast, GridPoint } from './nws-types.js';
import { US_STATES } from './us-states.js';

const FORECAST_PERIODS = 5;

/**
 * The MCP weather quickstart as a decorated class: US weather alerts and forecasts from the
 * National Weather Service. The methods are plain typed TypeScript: their input schemas and
 * descriptions come from the signatures and JSDoc (`npm run schemas` writes schemas.gen.ts).
 * The API client is a constructor dependency, so the base URL can be pointed elsewhere (a
 * proxy, a test fixture): `providers: [new Weather(nws)]`.
 */
export class Weather {
  constructor(private readonly nws: NwsClient) {}

  /**
   * Get weather alerts for a US state.
   * @param state Two-letter US state code (e.g. CA, NY)
   */
  @Tool({ annotations: { readOnlyHint: true, openWorldHint: true } })
  async get_alerts(state: string, ctx: Context): Promise<string> {
    const code = state.toUpperCase();
    if (!US_STATES.has(code)) {
      throw new UserError(
        `"${state}" is not a US state or territory code; use a two-letter code such as CA or NY.`,
      );
    }
    const alerts = await this.nws.get<AlertCollection>(`/alerts/active/area/${code}`, ctx.signal);
    const features = alerts.features ?? [];
    if (features.length === 0) return `No active alerts for ${code}.`;
    return `Active alerts for ${code}:\n\n${features.map((f) => formatAlert(f.properties ?? {})).join('\n---\n')}`;
  }

  /**
   * Get weather forecast for a location.
   * @param latitude Latitude of the location
   * @param longitude Longitude of the location
   */
  @Tool({ annotations: { readOnlyHint: true, openWorldHint: true } })
  async get_forecast(latitude: number, longitude: number, ctx: Context): Promise<string> {
    // NWS redirects requests with more than four decimals; round like its own links do.
    const point = `${Number(latitude.toFixed(4))},${Number(longitude.toFixed(4))}`;
    let grid: GridPoint;
    try {
      grid = await this.nws.get<GridPoint>(`/points/${point}`, ctx.signal);
    } catch (error) {
      if (error instanceof NwsError && error.status === 404) {
        throw new UserError(
          `No forecast for ${point}: the National Weather Service covers only US locations. (${error.message})`,
        );
      }
      throw error;
    }
    const forecastUrl = grid.properties?.forecast;
    if (!forecastUrl)
      throw new UserError(`The National Weather Service has no forecast link for ${point}.`);
    const forecast = await this.nws.get<Forecast>(forecastUrl, ctx.signal);
    const periods = forecast.properties?.periods ?? [];
    if (periods.length === 0) return `No forecast periods available for ${point}.`;
    const near = grid.properties?.relativeLocation?.properties;
    const place = near?.city && near.state ? ` (near ${near.city}, ${near.state})` : '';
    return `Forecast for ${point}${place}:\n\n${periods.slice(0, FORECAST_PERIODS).map(formatPeriod).join('\n---\n')}`;
  }
}
