/**
 * A client's value quoted in an error message: its JSON, cut to 80 characters; never throws.
 * Values arrive nested as deep as JSON.parse allows, far deeper than String() or
 * JSON.stringify can recurse, and a refusal must still be the client's error, not ours.
 */
export function quoteClientValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    const kind = Array.isArray(value)
      ? 'an array'
      : typeof value === 'object'
        ? 'an object'
        : `a ${typeof value}`;
    return `(${kind} nested too deep to show)`;
  }
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** A client's value in an error message: a string as it is (cut to 80 characters), else quoted. */
export function showClientValue(value: unknown): string {
  if (typeof value !== 'string') return quoteClientValue(value);
  return value.length > 80 ? `${value.slice(0, 80)}…` : value;
}
