import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Location, LocationLink, Position } from 'vscode-languageserver-protocol';
import { displayLocation } from './workspace-path.js';

const PREVIEW = 160;

/** A location of any shape a server returns, as `uri` and start position. */
export interface PlainLocation {
  readonly uri: string;
  readonly start: Position;
}

/** Flattens `Location | Location[] | LocationLink[] | null` into plain locations. */
export function plainLocations(result: Location | Location[] | LocationLink[] | null | undefined): PlainLocation[] {
  if (!result) return [];
  const list: (Location | LocationLink)[] = Array.isArray(result) ? result : [result];
  return list.map((item) =>
    'targetUri' in item
      ? { uri: item.targetUri, start: item.targetSelectionRange.start }
      : { uri: item.uri, start: item.range.start },
  );
}

/** Reads lines of workspace files for previews, each file once. */
export class LinePreviews {
  private readonly files = new Map<string, string[] | undefined>();

  line(uri: string, line: number): string | undefined {
    if (!this.files.has(uri)) {
      try {
        this.files.set(uri, readFileSync(fileURLToPath(uri), 'utf8').split(/\r?\n/));
      } catch {
        this.files.set(uri, undefined);
      }
    }
    const text = this.files.get(uri)?.[line]?.trim();
    if (text === undefined) return undefined;
    return text.length > PREVIEW ? `${text.slice(0, PREVIEW)}…` : text;
  }
}

/**
 * Locations as lines `path:line:column  preview`, 1-based, workspace-relative; a location outside
 * the workspace (a library's declaration) is named by its last path segments and never read.
 */
export function formatLocations(workspaceRoot: string, locations: readonly PlainLocation[]): string[] {
  const previews = new LinePreviews();
  return locations.map((location) => {
    const shown = displayLocation(workspaceRoot, location.uri);
    const where = `${shown.path}:${location.start.line + 1}:${location.start.character + 1}`;
    const preview = shown.inWorkspace ? previews.line(location.uri, location.start.line) : undefined;
    return preview ? `${where}  ${preview}` : where;
  });
}

/** Sorts locations by path, then position, so answers are stable. */
export function sortLocations(locations: PlainLocation[]): PlainLocation[] {
  return locations.sort(
    (left, right) =>
      left.uri.localeCompare(right.uri) ||
      left.start.line - right.start.line ||
      left.start.character - right.start.character,
  );
}
