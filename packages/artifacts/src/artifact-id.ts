import { randomBytes } from 'node:crypto';

const ARTIFACT_ID = /^art_[0-9a-f]{32}$/;

/** A new opaque artifact id: `art_` and 128 random bits in hex, so ids cannot be guessed. */
export function newArtifactId(): string {
  return `art_${randomBytes(16).toString('hex')}`;
}

/**
 * Whether `value` has the exact shape of an artifact id. Anything else (a path, `..`, a
 * prefix) is never looked up, and never becomes part of a file name.
 */
export function isArtifactId(value: unknown): value is string {
  return typeof value === 'string' && ARTIFACT_ID.test(value);
}
