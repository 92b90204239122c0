// JSON text from outside the code (a button's value, a modal's metadata, a value in Redis) read without
// throwing: the caller's schema then says whether the value is what it expects.

/** The value of a JSON text, or undefined when the text is not JSON. */
export function jsonValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
