import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { linkTree } from './link-tree.js';

/** A published package of the repository, as read from its package.json. */
export interface PublishedPackage {
  readonly name: string;
  readonly folder: string;
  readonly manifest: PackageManifest;
}

/** The package.json fields this check reads. */
export interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly exports?: Record<string, unknown>;
  readonly files?: string[];
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly nx?: unknown;
}

/** Every package under `packages/` that is not private. */
export function publishedPackages(repositoryRoot: string): PublishedPackage[] {
  const packagesFolder = join(repositoryRoot, 'packages');
  return readdirSync(packagesFolder)
    .map((name) => join(packagesFolder, name))
    .filter((folder) => existsSync(join(folder, 'package.json')))
    .map((folder) => ({ folder, manifest: JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ folder, manifest }) => ({ name: manifest.name, folder, manifest }));
}

/**
 * Packs each package as a release would, without touching the repository: a copy of the package
 * folder (its files hard-linked, its package.json copied) goes through the release manifest step
 * (`tools/release/publish-manifest.mjs strip`, the packages' prepack; one process for all copies),
 * then one `npm pack` packs all copies. In place, prepack would rewrite the package.json that
 * tests running in parallel resolve sibling sources through.
 * Returns the tarball path of each package by name.
 */
export function packPackages(
  repositoryRoot: string,
  packages: readonly PublishedPackage[],
  scratch: string,
): Map<string, string> {
  const staging = join(scratch, 'staging');
  const tarballs = join(scratch, 'tarballs');
  mkdirSync(tarballs, { recursive: true });
  const stripManifest = join(repositoryRoot, 'tools/release/publish-manifest.mjs');
  const copies = packages.map((pkg) => {
    const copy = join(staging, basename(pkg.folder));
    // Linked, not copied (see linkTree), but for the manifest, which the strip step rewrites.
    linkTree(pkg.folder, copy, {
      skip: (source) => /[/\\](node_modules|test-results|\.nx)$/.test(source),
      copy: (source) => source === join(pkg.folder, 'package.json'),
    });
    return copy;
  });
  execFileSync(process.execPath, [stripManifest, 'strip', ...copies], { stdio: 'pipe' });
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tarballs, ...copies], {
      cwd: scratch,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  ) as { name: string; filename: string }[];
  return new Map(packed.map((entry) => [entry.name, join(tarballs, entry.filename)]));
}
