import { JsonRpcCode, parseFrame } from '../../jsonrpc/index.js';
import type { HttpResponder } from './exchange.js';
import { BAD_REQUEST, sendError } from './responses.js';

/** A POSTed body read within the size limit, and the message it parses to. */
export interface PostedMessage {
  readonly text: string;
  readonly parsed: unknown;
}

/**
 * The message of a POSTed body, as `req.text(maxBodyBytes)` read it (`undefined`: past the
 * limit); `undefined` once the refusal is sent (413 past the limit, 400 with -32700 for a body
 * that is not JSON). Called after the read, not around it: no extra await per request.
 */
export function readMessage(
  text: string | undefined,
  maxBodyBytes: number,
  res: HttpResponder,
): PostedMessage | undefined {
  if (text === undefined) {
    sendError(res, 413, BAD_REQUEST, `Payload Too Large: the body exceeds ${maxBodyBytes} bytes`);
    return undefined;
  }
  try {
    return { text, parsed: parseFrame(text) };
  } catch (error) {
    sendError(res, 400, JsonRpcCode.ParseError, `Parse error: ${(error as Error).message}`);
    return undefined;
  }
}
