// `node --import` this file to have every module the process loads listed, one URL a line, in
// the file MCP_FW_LOAD_LOG names (lazy-commands.test.ts checks what `mcp-fw --help` loads).
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function load(url, context, next) {
  appendFileSync(log, url + '\\n');
  return next(url, context);
}
`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, {
  data: { log: process.env.MCP_FW_LOAD_LOG },
});
