import type { EraSurface, SurfaceLock } from './surface-lock.js';

/** One difference between the locked surface and the current one. */
export interface SurfaceChange {
  readonly breaking: boolean;
  /** e.g. `2025-11-25 tool create_issue: new required argument "title"`. */
  readonly message: string;
}

type Schema = Record<string, unknown>;

// Canonical JSON: key order does not make two schemas differ.
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Schema)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

const types = (s: Schema | undefined): string[] | undefined =>
  s?.type === undefined ? undefined : ([] as string[]).concat(s.type as string | string[]);

/** Why `after` accepts less than `before` for one property, or undefined when it does not. */
function narrowed(before: Schema, after: Schema): string | undefined {
  const was = types(before);
  const now = types(after);
  // integer is a kind of number: number → integer narrows, integer → number widens.
  const accepts = (set: string[] | undefined, t: string) =>
    set === undefined || set.includes(t) || (t === 'integer' && set.includes('number'));
  if (now && (was === undefined || was.some((t) => !accepts(now, t))))
    return `type changed from ${was?.join('|') ?? 'any'} to ${now.join('|')}`;
  const oldEnum = before.enum as unknown[] | undefined;
  const newEnum = after.enum as unknown[] | undefined;
  if (newEnum) {
    if (!oldEnum) return `now limited to ${canonical(newEnum)}`;
    const gone = oldEnum.filter((v) => !newEnum.some((n) => canonical(n) === canonical(v)));
    if (gone.length > 0) return `enum lost ${gone.map((v) => canonical(v)).join(', ')}`;
  }
  return undefined;
}

function compareTool(
  at: string,
  before: EraSurface['tools'][string],
  after: EraSurface['tools'][string],
  out: SurfaceChange[],
): void {
  const inBefore = before.inputSchema ?? {};
  const inAfter = after.inputSchema ?? {};
  const propsBefore = (inBefore.properties ?? {}) as Record<string, Schema>;
  const propsAfter = (inAfter.properties ?? {}) as Record<string, Schema>;
  const reqBefore = new Set((inBefore.required ?? []) as string[]);
  for (const name of (inAfter.required ?? []) as string[])
    if (!reqBefore.has(name))
      out.push({ breaking: true, message: `${at}: new required argument "${name}"` });
  for (const [name, schema] of Object.entries(propsBefore)) {
    const now = propsAfter[name];
    if (!now) {
      // A client still sending it is refused when the schema forbids extra arguments.
      if (inAfter.additionalProperties === false)
        out.push({ breaking: true, message: `${at}: argument "${name}" removed` });
      continue;
    }
    const why = narrowed(schema, now);
    if (why) out.push({ breaking: true, message: `${at}: argument "${name}" narrowed (${why})` });
  }
  for (const name of Object.keys(propsAfter))
    if (!propsBefore[name] && !((inAfter.required ?? []) as string[]).includes(name))
      out.push({ breaking: false, message: `${at}: new optional argument "${name}"` });
  if (before.outputSchema && canonical(before.outputSchema) !== canonical(after.outputSchema))
    out.push({
      breaking: true,
      message: after.outputSchema ? `${at}: output schema changed` : `${at}: output schema removed`,
    });
  else if (!before.outputSchema && after.outputSchema)
    out.push({ breaking: false, message: `${at}: output schema added` });
}

function compareEra(era: string, before: EraSurface, after: EraSurface, out: SurfaceChange[]) {
  const kinds = [
    ['tool', 'tools'],
    ['prompt', 'prompts'],
    ['resource', 'resources'],
    ['resource template', 'resourceTemplates'],
  ] as const;
  for (const [kind, list] of kinds) {
    const was = before[list] as Record<string, unknown>;
    const now = after[list] as Record<string, unknown>;
    for (const name of Object.keys(was))
      if (!(name in now)) out.push({ breaking: true, message: `${era} ${kind} ${name}: removed` });
    for (const name of Object.keys(now))
      if (!(name in was)) out.push({ breaking: false, message: `${era} ${kind} ${name}: added` });
  }
  for (const [name, tool] of Object.entries(before.tools)) {
    const now = after.tools[name];
    if (now) compareTool(`${era} tool ${name}`, tool, now, out);
  }
  for (const [name, prompt] of Object.entries(before.prompts)) {
    const now = after.prompts[name];
    if (!now) continue;
    const was = new Map(prompt.arguments.map((a) => [a.name, a.required === true]));
    for (const arg of now.arguments)
      if (arg.required && was.get(arg.name) !== true)
        out.push({
          breaking: true,
          message: `${era} prompt ${name}: new required argument "${arg.name}"`,
        });
  }
}

/**
 * What changed from the locked surface to the current one, per revision: a removed member, a
 * new required argument, a narrowed type (type changed, enum shrunk) or a changed output schema
 * is breaking; a new member, a new optional argument or a new output schema is not. A revision
 * the lock has and the server no longer serves is breaking too.
 */
export function compareSurfaces(before: SurfaceLock, after: SurfaceLock): SurfaceChange[] {
  const out: SurfaceChange[] = [];
  for (const [era, surface] of Object.entries(before.eras)) {
    const now = after.eras[era];
    if (!now) out.push({ breaking: true, message: `${era}: no longer served` });
    else compareEra(era, surface, now, out);
  }
  return out;
}
