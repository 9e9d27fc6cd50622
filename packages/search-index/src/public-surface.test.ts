import { describe, expect, it } from 'vitest';
import * as api from './index.js';

describe('@clawsmith/search-index public surface', () => {
  it('exports exactly these values', () => {
    expect(Object.keys(api).sort()).toEqual([
      'STORED_INDEX_FORMAT',
      'SearchIndexes',
      'TrigramCollector',
      'compareWalkOrder',
      'describeQuery',
      'hasTrigram',
      'isUnder',
      'literalQuery',
      'parseStoredIndex',
      'postingsOf',
      'rangeUnder',
      'regexQuery',
      'satisfies',
    ]);
  });

  it('keeps the stored format that other processes of the same index folder must agree on', () => {
    // Another version reading this file refuses and rebuilds it instead of trusting it.
    expect(api.STORED_INDEX_FORMAT).toEqual({ magic: 'CLWSIDX1', version: 5, headerBytes: 64 });
  });
});
