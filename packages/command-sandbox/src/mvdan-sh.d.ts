// Types for the parts of mvdan-sh (the mvdan.cc/sh parser compiled to JavaScript) this package uses.
declare module 'mvdan-sh' {
  interface MvdanParser {
    Parse(source: string, name: string): unknown;
  }
  interface MvdanSyntax {
    NewParser(...options: unknown[]): MvdanParser;
    Variant(language: unknown): unknown;
    LangBash: unknown;
    NodeType(node: unknown): string;
    Walk(node: unknown, visit: (node: unknown) => boolean): void;
    SplitBraces(word: unknown): unknown;
  }
  const mvdan: { syntax: MvdanSyntax };
  export default mvdan;
}
