import { z } from 'zod';
import type { Position } from 'vscode-languageserver-protocol';
import { LSP_ERROR_CODES, LspError } from './lsp-error.js';

/** The input of the tools that ask about one position in a file. */
export const positionInputSchema = z
  .object({
    path: z.string().min(1).max(4096).describe('File path, relative to the workspace.'),
    line: z.number().int().min(1).describe('Line number, 1-based.'),
    column: z
      .number()
      .int()
      .min(1)
      .describe('Column, 1-based (characters from the start of the line); point at the symbol.'),
  })
  .strict();

/** Input of a position tool. */
export type PositionInput = z.output<typeof positionInputSchema>;

/** The LSP position (0-based) of a 1-based line and column, checked against the document's text. */
export function toPosition(text: string, input: PositionInput): { position: Position; word: string } {
  const lines = text.split(/\r?\n/);
  const lineText = lines[input.line - 1];
  if (lineText === undefined) {
    throw new LspError(
      LSP_ERROR_CODES.invalidPosition,
      `${input.path} has ${lines.length} lines; line ${input.line} does not exist. Give a line between 1 and ${lines.length}.`,
    );
  }
  if (input.column > lineText.length + 1) {
    throw new LspError(
      LSP_ERROR_CODES.invalidPosition,
      `Line ${input.line} of ${input.path} has ${lineText.length} characters; column ${input.column} is past its end.`,
    );
  }
  const character = input.column - 1;
  const before = /[\p{L}\p{N}_$]*$/u.exec(lineText.slice(0, character))?.[0] ?? '';
  const after = /^[\p{L}\p{N}_$]*/u.exec(lineText.slice(character))?.[0] ?? '';
  return { position: { line: input.line - 1, character }, word: before + after };
}
