import { fetchExchange, type HttpExchange } from './http-exchange.js';

// The `#http-fetch` variant for runtimes other than Node (package.json `imports`): the global
// fetch, looked up at each call so that a fetch installed later (a polyfill, a test's stub) is
// the one used.

/** The Streamable HTTP transport's default fetch: the global one. */
export const httpFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

/** The Streamable HTTP transport's default exchange: over the global fetch. */
export const httpExchange: HttpExchange = fetchExchange(httpFetch);
