import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { MCP_SCHEMA_DIR } from './paths.ts';

/** The result type each request method answers with, per the official schema's names. */
const RESULT_TYPES: Record<string, string> = {
  initialize: 'InitializeResult',
  ping: 'EmptyResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'completion/complete': 'CompleteResult',
  'logging/setLevel': 'EmptyResult',
  'resources/subscribe': 'EmptyResult',
  'resources/unsubscribe': 'EmptyResult',
  'server/discover': 'DiscoverResult',
  'subscriptions/listen': 'SubscriptionsListenResult',
  // 2025-11-25 core tasks (the 2026-07-28 extension has its own schema: ext-tasks-schema.ts).
  'tasks/get': 'GetTaskResult',
  'tasks/result': 'GetTaskPayloadResult',
  'tasks/list': 'ListTasksResult',
  'tasks/cancel': 'CancelTaskResult',
};

export interface SchemaValidator {
  readonly revision: string;
  /**
   * Validates one message the server wrote. `requestMethod` is the method of the request a
   * response answers (needed to pick the result type). Returns the problems, empty when valid.
   */
  check(message: unknown, requestMethod?: string): string[];
}

const cache = new Map<string, SchemaValidator>();

/** A validator for messages of one revision, against `vendor/mcp-schema/<revision>/schema.json`. */
export function mcpSchema(revision: string): SchemaValidator {
  const hit = cache.get(revision);
  if (hit) return hit;
  const schema = JSON.parse(readFileSync(join(MCP_SCHEMA_DIR, revision, 'schema.json'), 'utf8'));
  const defsKey = schema.$defs ? '$defs' : 'definitions';
  const options = { strict: false, allErrors: true, logger: false } as const;
  const ajv = defsKey === '$defs' ? new Ajv2020(options) : new Ajv(options);
  (addFormats as unknown as { default: (a: Ajv) => void }).default(ajv as Ajv);
  ajv.addSchema(schema, 'mcp');
  const defs = schema[defsKey] as Record<string, unknown>;
  const get = (name: string): ValidateFunction => {
    const fn = ajv.getSchema(`mcp#/${defsKey}/${name}`);
    if (!fn) throw new Error(`${revision} schema has no ${name}`);
    return fn;
  };
  const pick = (...names: string[]) => names.find((n) => n in defs) as string;
  const responseType = pick('JSONRPCResultResponse', 'JSONRPCResponse');
  const errorType = pick('JSONRPCErrorResponse', 'JSONRPCError');
  const run = (name: string, value: unknown): string[] => {
    const fn = get(name);
    return fn(value) ? [] : [`${name}: ${ajv.errorsText(fn.errors)}`];
  };
  const validator: SchemaValidator = {
    revision,
    check(message, requestMethod) {
      if (typeof message !== 'object' || message === null) return ['not an object'];
      const m = message as Record<string, unknown>;
      if ('result' in m) {
        const problems = run(responseType, m);
        const result = m.result as { resultType?: unknown; task?: unknown } | undefined;
        const interim = result?.resultType === 'input_required';
        // A task-augmented request (2025-11-25 `params.task`) is answered with the task.
        const created = typeof result?.task === 'object' && 'CreateTaskResult' in defs;
        const resultType = requestMethod
          ? interim
            ? 'InputRequiredResult'
            : created
              ? 'CreateTaskResult'
              : RESULT_TYPES[requestMethod]
          : undefined;
        if (requestMethod && !resultType)
          problems.push(`no result type known for ${requestMethod}`);
        if (resultType) problems.push(...run(resultType, m.result));
        return problems;
      }
      if ('error' in m) return run(errorType, m);
      if ('id' in m) return run('ServerRequest', m).concat(run('JSONRPCRequest', m));
      return run('ServerNotification', m).concat(run('JSONRPCNotification', m));
    },
  };
  cache.set(revision, validator);
  return validator;
}
