import { fastmcpServer } from './fastmcp-tools.js';

// fastmcp's documented stdio start. No top-level await: `mcp-fw build --bundle` makes CommonJS.
void fastmcpServer().start({ transportType: 'stdio' });
