import { parseArgs } from 'node:util';

/** What the command line said; anything left undefined is asked for (or defaulted by `--yes`). */
export interface Flags {
  target?: string;
  template?: string;
  transport?: string;
  auth?: string;
  /** Who signs people in with `--auth oauth`: `external` or an identity provider preset. */
  idp?: string;
  install?: boolean;
  git?: boolean;
  published: boolean;
  yes: boolean;
  force: boolean;
  help: boolean;
}

/** A command line we cannot act on; the message says what to fix. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The `--help` text. */
export const USAGE = `Usage: create-mcp-server [directory] [options]

Creates a Model Context Protocol server project written with mcp-fw. Asks for anything not
given as an option when run in a terminal.

  npm create mcp-server@latest my-server
  npm create mcp-server@latest my-server -- --template full --no-git

Options:
  -t, --template <name>     basic (default), http or full
      --transport <name>    stdio (default) or http; the http template is always http
      --auth <name>         none (default) or oauth: the http template as an OAuth 2.1
                            protected resource (bearer tokens, scopes per tool, a local
                            authorization server for development); implies --template http
      --idp <name>          with --auth oauth, who signs people in: external (default: your
                            authorization server issues the tokens) or github, google, entra,
                            auth0, okta, keycloak, workos, oidc: the server is its own
                            authorization server and people sign in at that identity provider
                            (src/idp.ts, .env.example, and the README says what to register
                            there); implies --auth oauth
      --no-install          do not install the dependencies
      --no-git              do not initialize a git repository
      --published           depend on the published @mcp-fw packages; by default, run from a
                            clone of mcp-fw or from a tarball made with npm pack, the project
                            gets them packed into its vendor/ folder
  -y, --yes                 take the default for everything not given
  -f, --force               write into a directory that is not empty (same-named files are replaced)
  -h, --help                print this help
`;

/** Reads the command line; throws a {@link UsageError} for unknown options or extra arguments. */
export function parseFlags(argv: readonly string[]): Flags {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        template: { type: 'string', short: 't' },
        transport: { type: 'string' },
        auth: { type: 'string' },
        idp: { type: 'string' },
        'no-install': { type: 'boolean' },
        'no-git': { type: 'boolean' },
        published: { type: 'boolean' },
        yes: { type: 'boolean', short: 'y' },
        force: { type: 'boolean', short: 'f' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const option = /'([^']+)'/.exec(message)?.[1];
    // Node's own text suggests `--` for positionals, which is not the likely fix here.
    throw new UsageError(
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option ? `unknown option ${option}` : message,
    );
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) {
    throw new UsageError(
      `expected one directory, got ${positionals.length}: ${positionals.join(' ')}`,
    );
  }
  return {
    target: positionals[0],
    template: values.template,
    transport: values.transport,
    auth: values.auth,
    idp: values.idp,
    install: values['no-install'] ? false : undefined,
    git: values['no-git'] ? false : undefined,
    published: values.published ?? false,
    yes: values.yes ?? false,
    force: values.force ?? false,
    help: values.help ?? false,
  };
}
