/**
 * Strict mode makes the model send every field, `null` for the optional ones it leaves out.
 * The SDK strips those nulls before `execute`, but `needsApproval` gets the arguments as sent;
 * this removes them the same way (an optional field whose schema does not allow null), so the
 * host decides on the input it will run.
 */
export function withoutStrictNulls(schema: unknown, value: unknown): unknown {
  if (!isRecord(schema) || !isRecord(value) || !isRecord(schema.properties)) return value;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const cleaned: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    const property = schema.properties[key];
    if (entry === null && !required.has(key) && !allowsNull(property)) continue;
    cleaned[key] = withoutStrictNulls(property, entry);
  }
  return cleaned;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function allowsNull(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  return ['anyOf', 'oneOf'].some((key) => Array.isArray(schema[key]) && (schema[key] as unknown[]).some(allowsNull));
}
