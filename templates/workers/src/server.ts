// The server `npm run dev`, `npm run inspect` and `npm start` serve on Node (the same members as
// the Worker's). src/worker.ts does not import this file: Workers refuse random values at module
// scope, so the Worker builds its servers on the first request instead.
import { createTemperatureServer } from './temperatures.js';

export const server = createTemperatureServer();
