/** The URI scheme of what `clawsmith mcp serve` offers as resources. */
export const SERVED_URI_PREFIX = 'clawsmith://';

/** The resource URI of an artifact of the session (`read_artifact` reads the same content in ranges). */
export function artifactUri(artifactId: string): string {
  return `${SERVED_URI_PREFIX}artifacts/${encodeURIComponent(artifactId)}`;
}

/** The resource URI of a restore point of the session. */
export function restorePointUri(restorePointId: string): string {
  return `${SERVED_URI_PREFIX}restore-points/${encodeURIComponent(restorePointId)}`;
}

/** What a served URI names, or undefined for anything else. */
export function parseServedUri(
  uri: string,
): { readonly kind: 'artifact' | 'restore-point'; readonly id: string } | undefined {
  const match = /^clawsmith:\/\/(artifacts|restore-points)\/([^/]+)$/.exec(uri);
  if (!match) return undefined;
  try {
    return { kind: match[1] === 'artifacts' ? 'artifact' : 'restore-point', id: decodeURIComponent(match[2]!) };
  } catch {
    return undefined;
  }
}
