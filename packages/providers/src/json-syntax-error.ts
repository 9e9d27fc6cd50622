/** Where a JSON text stops being JSON, and why. */
export interface JsonSyntaxError {
  /** Offset (UTF-16 code units) of the first character that cannot be JSON there. */
  readonly offset: number;
  /** What was expected, in words. */
  readonly reason: string;
}

class Failure {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/**
 * Locates the first syntax error of a text that `JSON.parse` refused. V8's messages carry a
 * position only for some errors (not for "Unexpected token"), so the text is scanned here.
 * Returns undefined for valid JSON.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let offset = 0;
  const fail = (reason: string): never => {
    throw new Failure(offset, offset >= text.length ? 'the JSON ends too early' : reason);
  };
  const skipWhitespace = () => {
    while (offset < text.length && ' \t\n\r'.includes(text[offset]!)) offset += 1;
  };
  const string = () => {
    offset += 1;
    for (;;) {
      const character = text[offset];
      if (character === undefined) fail('unterminated string');
      if (character === '"') break;
      if (character === '\\') {
        ESCAPE.lastIndex = offset;
        if (!ESCAPE.test(text)) fail('invalid escape in a string');
        offset = ESCAPE.lastIndex;
        continue;
      }
      if (character!.charCodeAt(0) < 0x20) fail('a control character (such as a raw line break) inside a string');
      offset += 1;
    }
    offset += 1;
  };
  const value = (depth: number): void => {
    if (depth > 1000) fail('nesting deeper than 1000 levels');
    skipWhitespace();
    const character = text[offset];
    if (character === '{') {
      offset += 1;
      skipWhitespace();
      if (text[offset] === '}') {
        offset += 1;
        return;
      }
      for (;;) {
        skipWhitespace();
        if (text[offset] !== '"') fail('expected a double-quoted property name');
        string();
        skipWhitespace();
        if (text[offset] !== ':') fail("expected ':' after a property name");
        offset += 1;
        value(depth + 1);
        skipWhitespace();
        if (text[offset] === ',') offset += 1;
        else if (text[offset] === '}') break;
        else fail("expected ',' or '}' after a property value");
      }
      offset += 1;
    } else if (character === '[') {
      offset += 1;
      skipWhitespace();
      if (text[offset] === ']') {
        offset += 1;
        return;
      }
      for (;;) {
        value(depth + 1);
        skipWhitespace();
        if (text[offset] === ',') offset += 1;
        else if (text[offset] === ']') break;
        else fail("expected ',' or ']' after an array element");
      }
      offset += 1;
    } else if (character === '"') {
      string();
    } else {
      for (const literal of ['true', 'false', 'null']) {
        if (text.startsWith(literal, offset)) {
          offset += literal.length;
          return;
        }
      }
      NUMBER.lastIndex = offset;
      if (!NUMBER.test(text)) fail('expected a value (an object, array, string, number, true, false or null)');
      offset = NUMBER.lastIndex;
    }
  };
  try {
    value(0);
    skipWhitespace();
    if (offset < text.length) fail('unexpected text after the end of the document');
    return undefined;
  } catch (error) {
    if (error instanceof Failure) return { offset: error.offset, reason: error.reason };
    throw error;
  }
}
