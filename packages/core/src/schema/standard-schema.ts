// The Standard Schema interfaces (https://standardschema.dev), vendored as types so that core
// depends on no validator library. Only the members mcp-fw reads are declared.

export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>;
}

export type StandardResult<TOutput> =
  | { readonly value: TOutput; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardIssue> };

/** The Standard Schema interface (standardschema.dev) with its JSON Schema extension: what zod 4, valibot or arktype schemas implement. */
export interface StandardSchemaV1<TInput = unknown, TOutput = TInput> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    /** Validates a value: the parsed value, or the issues. */
    readonly validate: (
      value: unknown,
    ) => StandardResult<TOutput> | Promise<StandardResult<TOutput>>;
    readonly types?: { readonly input: TInput; readonly output: TOutput };
    readonly jsonSchema?: {
      /** The JSON Schema of what the schema accepts. */
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
      /** The JSON Schema of what validation produces. */
      readonly output: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}

/** The inferred output type of a Standard Schema. */
export type InferOutput<T> = T extends StandardSchemaV1<unknown, infer O> ? O : unknown;

export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    '~standard' in value &&
    typeof (value as StandardSchemaV1)['~standard']?.validate === 'function'
  );
}
