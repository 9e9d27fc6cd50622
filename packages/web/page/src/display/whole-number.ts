// One formatter for the whole page: `Number.prototype.toLocaleString` builds a new formatter on
// every call, which made counting lines the most expensive part of rendering a tool card.
const WHOLE_NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** `12,345`: a count with thousands separators (as `toLocaleString('en-US')` writes it). */
export function wholeNumber(value: number): string {
  return WHOLE_NUMBER.format(value);
}
