import { queryTerms } from './search-text.js';

/** The fields `search_tools` reads, strongest first. */
export type SearchField = 'name' | 'aliases' | 'tags' | 'searchHint' | 'description';

/** Every {@link SearchField}, strongest first. */
export const SEARCH_FIELDS: readonly SearchField[] = Object.freeze([
  'name',
  'aliases',
  'tags',
  'searchHint',
  'description',
] as const);

/**
 * What a whole-word match of one query word is worth in each field. Each weight is twice the
 * next, and a prefix match counts {@link PREFIX_MATCH_FACTOR} of a whole word, so for any one
 * query word a match in a stronger field always outranks any match in a weaker one.
 */
export const SEARCH_FIELD_WEIGHTS: Readonly<Record<SearchField, number>> = Object.freeze({
  name: 16,
  aliases: 8,
  tags: 4,
  searchHint: 2,
  description: 1,
});

/** A query word that is only the start of an indexed word (`migrat` of `migration`). */
export const PREFIX_MATCH_FACTOR = 0.75;

/** Query words shorter than this match whole words only. */
const MIN_PREFIX_LENGTH = 3;
/** At most this many indexed words (the alphabetically first) are tried for one prefix. */
const MAX_PREFIX_EXPANSIONS = 256;
/** Added when the whole query is a tool's name: that tool comes first. */
const EXACT_NAME_BONUS = 1_000_000;

const FIELD_WEIGHT_BY_INDEX = SEARCH_FIELDS.map((field) => SEARCH_FIELD_WEIGHTS[field]);
const NO_FIELD = 255;

/** One tool's text, already tokenised, as the index receives it. */
export interface IndexedTool {
  readonly name: string;
  readonly normalizedName: string;
  /** The distinct tokens of each field, in {@link SEARCH_FIELDS} order. */
  readonly fieldTokens: readonly (readonly string[])[];
}

/** One hit of {@link SearchIndex.search}. */
export interface SearchHit {
  /** Position of the tool in the array the index was built from. */
  readonly position: number;
  /** The score; higher is better. Equal scores are ordered by tool name. */
  readonly score: number;
  /** The strongest field any query word matched. */
  readonly field: SearchField;
}

interface Posting {
  readonly tools: Int32Array;
  /** Index into SEARCH_FIELDS of the strongest field the word occurs in, per tool. */
  readonly fields: Uint8Array;
}

/**
 * An inverted index over tool text, built once. A query reads only the postings of its own
 * words (and of words they are a prefix of): no text is tokenised again per query.
 */
export class SearchIndex {
  private readonly postings = new Map<string, Posting>();
  private readonly vocabulary: readonly string[];
  private readonly nameRank: Int32Array;
  private readonly exactNames = new Map<string, number>();
  private readonly scores: Float64Array;
  private readonly termScores: Float64Array;
  private readonly bestFields: Uint8Array;

  constructor(private readonly tools: readonly IndexedTool[]) {
    const building = new Map<string, number[]>();
    tools.forEach((tool, position) => {
      const strongest = new Map<string, number>();
      tool.fieldTokens.forEach((tokens, fieldIndex) => {
        for (const token of tokens) if (!strongest.has(token)) strongest.set(token, fieldIndex);
      });
      for (const [token, fieldIndex] of strongest) {
        let list = building.get(token);
        if (!list) building.set(token, (list = []));
        list.push(position * 8 + fieldIndex);
      }
      if (!this.exactNames.has(tool.normalizedName)) this.exactNames.set(tool.normalizedName, position);
    });
    for (const [token, packed] of building) {
      const posting = { tools: new Int32Array(packed.length), fields: new Uint8Array(packed.length) };
      packed.forEach((value, index) => {
        posting.tools[index] = value >> 3;
        posting.fields[index] = value & 7;
      });
      this.postings.set(token, posting);
    }
    this.vocabulary = [...building.keys()].sort(compareCodeUnits);
    const byName = tools
      .map((_, position) => position)
      .sort((left, right) => compareCodeUnits(tools[left]!.name, tools[right]!.name));
    this.nameRank = new Int32Array(tools.length);
    byName.forEach((position, rank) => (this.nameRank[position] = rank));
    this.scores = new Float64Array(tools.length);
    this.termScores = new Float64Array(tools.length);
    this.bestFields = new Uint8Array(tools.length).fill(NO_FIELD);
  }

  /** Number of distinct indexed words. */
  get vocabularySize(): number {
    return this.vocabulary.length;
  }

  /**
   * The best `limit` tools for `query`, best first, ties by name (code-unit order). Each query
   * word adds, times its rarity (`ln(1 + tools / tools it matched)`), the weight of the strongest
   * field it matched in that tool. A query equal to a tool's name puts that tool first.
   */
  search(query: string, normalizedQuery: string, limit: number, queryLimit: number, maxTerms: number): SearchHit[] {
    const touched: number[] = [];
    const add = (position: number, value: number): void => {
      if (this.scores[position] === 0) touched.push(position);
      this.scores[position] = this.scores[position]! + value;
    };
    for (const term of queryTerms(query, queryLimit, maxTerms)) {
      const termTouched: number[] = [];
      this.scoreWord(term, 1, termTouched);
      if (term.length >= MIN_PREFIX_LENGTH) {
        let index = lowerBound(this.vocabulary, term);
        for (let expanded = 0; index < this.vocabulary.length && expanded < MAX_PREFIX_EXPANSIONS; index += 1) {
          const word = this.vocabulary[index]!;
          if (!word.startsWith(term)) break;
          if (word === term) continue;
          this.scoreWord(word, PREFIX_MATCH_FACTOR, termTouched);
          expanded += 1;
        }
      }
      const rarity = Math.log(1 + this.tools.length / Math.max(1, termTouched.length));
      for (const position of termTouched) {
        add(position, this.termScores[position]! * rarity);
        this.termScores[position] = 0;
      }
    }
    const exact = this.exactNames.get(normalizedQuery);
    if (exact !== undefined) {
      add(exact, EXACT_NAME_BONUS);
      this.bestFields[exact] = 0;
    }
    const hits = this.selectBest(touched, limit);
    for (const position of touched) {
      this.scores[position] = 0;
      this.bestFields[position] = NO_FIELD;
    }
    return hits;
  }

  private scoreWord(word: string, factor: number, termTouched: number[]): void {
    const posting = this.postings.get(word);
    if (!posting) return;
    for (let index = 0; index < posting.tools.length; index += 1) {
      const position = posting.tools[index]!;
      const fieldIndex = posting.fields[index]!;
      const value = FIELD_WEIGHT_BY_INDEX[fieldIndex]! * factor;
      const previous = this.termScores[position]!;
      if (previous === 0) termTouched.push(position);
      if (value > previous) this.termScores[position] = value;
      if (fieldIndex < this.bestFields[position]!) this.bestFields[position] = fieldIndex;
    }
  }

  // A bounded insertion selection: queries return a handful of hits out of thousands touched,
  // so keeping the best `limit` costs about one comparison per touched tool, not a full sort.
  private selectBest(touched: readonly number[], limit: number): SearchHit[] {
    const best: number[] = [];
    if (limit < 1) return [];
    const better = (left: number, right: number): boolean => {
      const difference = this.scores[left]! - this.scores[right]!;
      return difference !== 0 ? difference > 0 : this.nameRank[left]! < this.nameRank[right]!;
    };
    for (const position of touched) {
      if (best.length === limit && !better(position, best[best.length - 1]!)) continue;
      let index = best.length === limit ? best.length - 1 : best.length;
      while (index > 0 && better(position, best[index - 1]!)) {
        best[index] = best[index - 1]!;
        index -= 1;
      }
      best[index] = position;
    }
    return best.map((position) => ({
      position,
      score: this.scores[position]!,
      field: SEARCH_FIELDS[this.bestFields[position]!] ?? 'description',
    }));
  }
}

/** Orders strings by UTF-16 code units: the same everywhere, unlike `localeCompare`. */
export function compareCodeUnits(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

function lowerBound(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
