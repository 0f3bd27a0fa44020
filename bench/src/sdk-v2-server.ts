import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { sdkServer } from './sdk-v2-tools.js';

// serveStdio is the SDK's documented stdio entry point; it calls the factory per connection.
serveStdio(sdkServer);
