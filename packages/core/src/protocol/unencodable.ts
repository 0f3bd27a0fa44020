import type { InboundRequest } from '../jsonrpc/index.js';
import { UnserialisableResultError } from '../registry/index.js';
import type { ErrorPolicy } from './error-ref.js';
import type { Era } from './eras/era.js';

/**
 * What replaces a result the engine could not serialise: values the normalisers pass through
 * untouched (a tool's own `structuredContent`, a resource's `_meta`, prompt messages) meet
 * JSON.stringify only there. A tool call answers with an `isError` result naming the tool and
 * the path; a resource read or prompt with -32603 naming them; anything else stays -32603.
 */
export function unencodableResult(
  request: InboundRequest,
  value: unknown,
  error: unknown,
  setting: { policy: ErrorPolicy; era: Era },
): unknown {
  const params = request.params ?? {};
  switch (request.method) {
    case 'tools/call': {
      const failure = new UnserialisableResultError('tool', String(params.name), value, error);
      return setting.era.toolError(failure, {
        policy: setting.policy,
        quiet: request.aborted,
      });
    }
    case 'prompts/get':
      throw new UnserialisableResultError('prompt', String(params.name), value, error);
    case 'resources/read':
      throw new UnserialisableResultError('resource', String(params.uri), value, error);
    default:
      throw error;
  }
}
