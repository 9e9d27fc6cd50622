/**
 * Checks the arguments of one of the server's own tools against its flat object schema
 * (properties of type string or boolean, no others). Returns the problem in words, or undefined.
 */
export function checkOwnToolArguments(schema: Record<string, unknown>, args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return 'expected an object';
  const properties = (schema.properties ?? {}) as Record<string, { type?: string }>;
  for (const [key, value] of Object.entries(args)) {
    const property = properties[key];
    if (!property) return `unknown field ${JSON.stringify(key)} (known: ${Object.keys(properties).join(', ')})`;
    if (typeof value !== property.type) return `${key} must be a ${property.type}`;
  }
  return undefined;
}
