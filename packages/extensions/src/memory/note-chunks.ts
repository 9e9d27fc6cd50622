/** One searchable piece of a note: a heading's section or a few paragraphs, with its first line. */
export interface NoteChunk {
  /** 1-based line of the file where the chunk starts. */
  readonly line: number;
  readonly text: string;
}

const CHUNK_CHARACTERS = 800;
const CHUNK_LINES = 30;

/**
 * Splits markdown into chunks that each start at a heading or after a blank line, and hold at
 * most about 800 characters or 30 lines: small enough that a hit points at the right line, large
 * enough that BM25 sees a paragraph's words together.
 */
export function noteChunks(text: string): NoteChunk[] {
  const lines = text.split(/\r?\n/);
  const chunks: NoteChunk[] = [];
  let start = -1;
  let buffer: string[] = [];
  let length = 0;
  const flush = () => {
    const body = buffer.join('\n').trim();
    if (body.length > 0) chunks.push({ line: start + 1, text: body });
    buffer = [];
    length = 0;
    start = -1;
  };
  lines.forEach((line, index) => {
    const heading = /^#{1,6}\s/.test(line);
    const blank = line.trim() === '';
    if (heading || (blank && (length >= CHUNK_CHARACTERS || buffer.length >= CHUNK_LINES))) flush();
    if (blank && buffer.length === 0) return;
    if (start === -1) start = index;
    buffer.push(line);
    length += line.length + 1;
    if (length >= CHUNK_CHARACTERS * 2 || buffer.length >= CHUNK_LINES * 2) flush();
  });
  flush();
  return chunks;
}
