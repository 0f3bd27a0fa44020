import type { AlertProperties, ForecastPeriod } from './nws-types.js';

/** One alert as the MCP weather quickstart prints it. */
export function formatAlert(alert: AlertProperties): string {
  return [
    `Event: ${alert.event ?? 'Unknown'}`,
    `Area: ${alert.areaDesc ?? 'Unknown'}`,
    `Severity: ${alert.severity ?? 'Unknown'}`,
    `Description: ${alert.description ?? 'No description available'}`,
    `Instructions: ${alert.instruction ?? 'No specific instructions provided'}`,
  ].join('\n');
}

/** One forecast period as the MCP weather quickstart prints it. */
export function formatPeriod(period: ForecastPeriod): string {
  return [
    `${period.name ?? 'Unknown'}:`,
    `Temperature: ${period.temperature ?? 'Unknown'}°${period.temperatureUnit ?? 'F'}`,
    `Wind: ${period.windSpeed ?? 'Unknown'} ${period.windDirection ?? ''}`.trimEnd(),
    `Forecast: ${period.detailedForecast ?? 'No forecast available'}`,
  ].join('\n');
}
