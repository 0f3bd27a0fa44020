// The parts of the National Weather Service API's GeoJSON responses that the tools read
// (https://www.weather.gov/documentation/services-web-api). Every field may be missing.

export interface AlertProperties {
  event?: string;
  areaDesc?: string;
  severity?: string;
  headline?: string | null;
  description?: string;
  instruction?: string | null;
}

/** `GET /alerts/active/area/{state}` */
export interface AlertCollection {
  features?: { properties?: AlertProperties }[];
}

/** `GET /points/{latitude},{longitude}` */
export interface GridPoint {
  properties?: {
    forecast?: string;
    relativeLocation?: { properties?: { city?: string; state?: string } };
  };
}

export interface ForecastPeriod {
  name?: string;
  temperature?: number;
  temperatureUnit?: string;
  windSpeed?: string;
  windDirection?: string;
  detailedForecast?: string;
}

/** The `forecast` URL of a grid point. */
export interface Forecast {
  properties?: { periods?: ForecastPeriod[] };
}

/** An error body (`application/problem+json`, RFC 7807). */
export interface Problem {
  title?: string;
  detail?: string;
}
