// The site's navigation: one list, read by the sidebar, the llms.txt index and the tests.
export interface NavItem {
  readonly text: string;
  readonly link: string;
}
export interface NavGroup {
  readonly text: string;
  readonly items: readonly NavItem[];
}

export const GUIDE: readonly NavGroup[] = [
  {
    text: 'Start',
    items: [
      { text: 'Quick start', link: '/quick-start' },
      { text: 'Architecture', link: '/guide/architecture' },
      { text: 'Examples', link: '/guide/examples' },
    ],
  },
  {
    text: 'Writing a server',
    items: [
      { text: 'Tools', link: '/guide/tools' },
      { text: 'Resources and templates', link: '/guide/resources' },
      { text: 'Prompts and completion', link: '/guide/prompts' },
      { text: 'MCP Apps (views)', link: '/guide/apps' },
      { text: 'The context: ctx', link: '/guide/context' },
      { text: 'The server object', link: '/guide/server' },
      { text: 'Composing servers', link: '/guide/composition' },
      { text: 'OpenAPI: serve a REST API', link: '/guide/openapi' },
      { text: 'Large servers', link: '/guide/large-servers' },
      { text: 'Errors', link: '/guide/errors' },
    ],
  },
  {
    text: 'Serving',
    items: [
      { text: 'Transports and serving options', link: '/guide/transports' },
      { text: 'Protocol eras', link: '/guide/protocol-eras' },
      { text: 'Authorization', link: '/guide/authorization' },
      { text: 'Sign-in setups and identity providers', link: '/guide/identity-providers' },
      { text: 'Guardrails and security limits', link: '/guide/guardrails' },
      { text: 'Deployment and scale-out', link: '/guide/deployment' },
      { text: 'Middleware and telemetry', link: '/guide/middleware' },
      { text: 'Tasks', link: '/guide/tasks' },
      { text: 'Proxy and gateway', link: '/guide/proxy' },
      { text: 'Publish and distribute', link: '/guide/distribution' },
    ],
  },
  {
    text: 'Tooling',
    items: [
      { text: 'Testing', link: '/guide/testing' },
      { text: 'The client', link: '/guide/client' },
      { text: 'CLI and dev runner', link: '/guide/cli' },
      { text: 'Scaffolder', link: '/guide/scaffolder' },
    ],
  },
  {
    text: 'Connect a client',
    items: [
      { text: 'Overview', link: '/integrations/clients' },
      { text: 'Claude Desktop', link: '/integrations/claude-desktop' },
      { text: 'Claude Code', link: '/integrations/claude-code' },
      { text: 'Cursor', link: '/integrations/cursor' },
      { text: 'VS Code', link: '/integrations/vscode' },
      { text: 'ChatGPT', link: '/integrations/chatgpt' },
      { text: 'Gemini CLI', link: '/integrations/gemini-cli' },
    ],
  },
  {
    text: 'Coming from elsewhere',
    items: [
      { text: 'From Python FastMCP', link: '/migrate/fastmcp' },
      { text: 'From the official SDK', link: '/migrate/official-sdk' },
    ],
  },
  {
    text: 'Reference',
    items: [
      { text: 'Performance', link: '/performance' },
      { text: 'API reference', link: '/api/' },
    ],
  },
];

/** Every page of the guide, in reading order. */
export const PAGES: readonly NavItem[] = GUIDE.flatMap((group) => group.items);
