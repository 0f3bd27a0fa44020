// mcp-fw over Streamable HTTP: serveHttp with its defaults (Origin/Host checks, sessions, both eras).
import { serveHttp } from '@mcp-fw/core/node';
import { announce } from './http-server-life.js';
import { benchServer } from './mcp-fw-tools.js';

const { url } = await serveHttp(benchServer(), { port: 0 });
announce(url);
