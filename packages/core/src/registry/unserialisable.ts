/** Where and why a value cannot be written as JSON, and what the author should do about it. */
export interface Unserialisable {
  /** A JSONPath into the value, e.g. `$.items[2].size`. */
  readonly path: string;
  /** What sits there, e.g. `a BigInt`. */
  readonly problem: string;
  readonly fix: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const JSON_VALUES = 'strings, numbers, booleans, null, arrays and plain objects';

function child(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

type Step =
  | { readonly value: unknown; readonly path: string; readonly key: string }
  | { readonly leave: object };

/**
 * The first place (in the order JSON.stringify visits) where `value` cannot be written as JSON:
 * a BigInt, a reference back to an enclosing object, a `toJSON()` or getter that throws.
 * Called only after serialisation failed, so normal results are never walked. Iterative, so a
 * value nested deeper than the call stack is still walked.
 */
export function findUnserialisable(value: unknown): Unserialisable | undefined {
  const steps: Step[] = [{ value, path: '$', key: '' }];
  const enclosing = new Map<object, string>();
  while (steps.length > 0) {
    const step = steps.pop()!;
    if ('leave' in step) {
      enclosing.delete(step.leave);
      continue;
    }
    let current = step.value;
    const { path } = step;
    const toJSON =
      typeof current === 'object' && current !== null
        ? (current as { toJSON?: unknown }).toJSON
        : undefined;
    if (typeof toJSON === 'function') {
      try {
        current = toJSON.call(current, step.key);
      } catch (error) {
        return {
          path,
          problem: `a value whose toJSON() threw "${messageOf(error)}"`,
          fix: 'make toJSON() return a JSON value, or convert the value before returning it',
        };
      }
    }
    if (typeof current === 'bigint') {
      return {
        path,
        problem: 'a BigInt',
        fix: 'convert BigInt values to a string (String(n)) or a number (Number(n)) before returning them',
      };
    }
    if (typeof current !== 'object' || current === null) continue;
    const back = enclosing.get(current);
    if (back !== undefined) {
      return {
        path,
        problem: `a circular reference (back to ${shortPath(back)})`,
        fix: 'return a copy without the cycle, e.g. only the fields the client needs',
      };
    }
    enclosing.set(current, path);
    steps.push({ leave: current });
    const keys: (string | number)[] = Array.isArray(current)
      ? Array.from(current.keys())
      : Object.keys(current);
    // Pushed last to first, so the first member is visited first, as JSON.stringify does.
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      let member: unknown;
      try {
        member = (current as Record<string | number, unknown>)[key];
      } catch (error) {
        return {
          path: child(path, key),
          problem: `a property whose getter threw "${messageOf(error)}"`,
          fix: `return only JSON values: ${JSON_VALUES}`,
        };
      }
      steps.push({ value: member, path: child(path, key), key: String(key) });
    }
  }
  return undefined;
}

/** A path for a message: a value nested thousands deep has a path as long; its ends say enough. */
export function shortPath(path: string): string {
  return path.length <= 240 ? path : `${path.slice(0, 120)}…${path.slice(-120)}`;
}

/** What went wrong, when the walk finds nothing more precise (e.g. a Proxy that throws). */
export function unserialisableFallback(error: unknown): Unserialisable {
  return {
    path: '$',
    problem: `a value JSON.stringify refused ("${messageOf(error)}")`,
    fix: `return only JSON values: ${JSON_VALUES}`,
  };
}
