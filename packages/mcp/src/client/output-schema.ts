import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';

let shared: AjvJsonSchemaValidator | undefined;

/**
 * A check of a tool's `structuredContent` against its declared `outputSchema` (Ajv, as the SDK
 * does when it has listed the tools itself; a session that offers stored tool lists has not).
 * Returns the problem, or undefined when the content matches or the schema cannot be compiled.
 */
export function outputSchemaCheck(outputSchema: Record<string, unknown>): (structured: unknown) => string | undefined {
  let validate: JsonSchemaValidator<unknown> | null | undefined;
  return (structured) => {
    if (validate === undefined) {
      try {
        shared ??= new AjvJsonSchemaValidator();
        validate = shared.getValidator(outputSchema as never);
      } catch {
        validate = null;
      }
    }
    if (validate === null) return undefined;
    const result = validate(structured);
    return result.valid ? undefined : result.errorMessage.replace(/\bdata\b/g, 'structuredContent');
  };
}
