import type { PermissionMode, PermissionRule } from './permission-policy.js';

/**
 * Files that usually hold credentials, as workspace-relative globs (any depth, case ignored):
 * environment files (not their `.example`, `.sample`, `.template` and `.dist` forms), private keys
 * and certificates, and client credential files.
 */
export const SECRET_FILE_GLOBS: readonly string[] = Object.freeze([
  '**/.env',
  '**/.env.!(example|sample|template|dist)',
  '**/*.pem',
  '**/*.key',
  '**/*.p12',
  '**/*.pfx',
  '**/id_rsa',
  '**/id_dsa',
  '**/id_ecdsa',
  '**/id_ed25519',
  '**/.netrc',
  '**/.npmrc',
  '**/.pgpass',
]);

/**
 * The built-in rule for secret files in `mode`, consulted when no rule of the configuration
 * matches a call: `default` and `accept-edits` ask before a tool reads or changes one (its
 * content would reach the model), `read-only` denies, `full-auto` allows. Searches and globs
 * leave secret files out and say so.
 */
export function secretFileRule(mode: PermissionMode): PermissionRule | undefined {
  if (mode === 'full-auto') return undefined;
  return {
    action: mode === 'read-only' ? 'deny' : 'ask',
    paths: SECRET_FILE_GLOBS,
    reason: 'the file usually holds credentials (.env, private keys); its content would be sent to the model',
  };
}
