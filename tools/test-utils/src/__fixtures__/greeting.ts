/** The text the bundled-fixture test's program prints, from a module of its own. */
export const greeting = (name: string): string => `hello ${name}`;
