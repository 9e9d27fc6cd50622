import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { linkTree } from './link-tree.js';
import type { PackageManifest } from './pack-packages.js';

/** Where each packed clawsmith package lies unpacked (name → folder holding its package.json). */
export type UnpackedPackages = ReadonlyMap<string, string>;

/** What a `node_modules` folder received from {@link installPackages}. */
export interface InstalledPackages {
  /** The clawsmith packages copied in: the ones asked for and every clawsmith package they declare. */
  readonly clawsmith: readonly string[];
  /** The third-party packages linked from the repository's installed copies. */
  readonly linked: readonly string[];
}

const CLAWSMITH_SCOPE = '@clawsmith/';

/** `node_modules/<name>` under `root`, for plain and scoped names. */
export function installedPath(root: string, name: string): string {
  return join(root, 'node_modules', ...name.split('/'));
}

/** What a manifest declares it needs: dependencies, optional dependencies and peers (optional or not). */
export function declaredDependencies(manifest: PackageManifest): string[] {
  return [manifest.dependencies, manifest.optionalDependencies, manifest.peerDependencies].flatMap((field) =>
    Object.keys(field ?? {}),
  );
}

function readManifest(folder: string): PackageManifest {
  return JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as PackageManifest;
}

/**
 * Installs `names` into `root/node_modules` the way npm would place them, from what the packages
 * declare and nothing else: each clawsmith package is placed from its unpacked tarball with its
 * files hard-linked (see {@link linkTree}; not a symbolic link: Node resolves a symlinked
 * package's imports from where the link points, which would see every other package), followed by the clawsmith packages it declares, transitively; each
 * third-party package any of them declares is linked from the repository's installed copy (the
 * first of `linkFrom`'s `node_modules` folders that holds it; the repository root by default).
 * Linking instead of `npm install` keeps the check offline on a fresh clone, whose npm cache
 * holds tarballs but no registry metadata. Packages in `alreadyAbove` are left out (a
 * `node_modules` further up holds them).
 */
export function installPackages(
  root: string,
  names: readonly string[],
  unpacked: UnpackedPackages,
  linkFrom: string | readonly string[],
  alreadyAbove: ReadonlySet<string> = new Set(),
): InstalledPackages {
  const sources = typeof linkFrom === 'string' ? [linkFrom] : linkFrom;
  const clawsmith: string[] = [];
  const thirdParty = new Set<string>();
  const pending = [...names];
  for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
    if (!name.startsWith(CLAWSMITH_SCOPE)) {
      thirdParty.add(name);
      continue;
    }
    if (alreadyAbove.has(name) || clawsmith.includes(name)) continue;
    const source = unpacked.get(name);
    if (!source) throw new Error(`${name} is declared but was not packed (is it private or missing?)`);
    linkTree(source, installedPath(root, name));
    clawsmith.push(name);
    pending.push(...declaredDependencies(readManifest(source)));
  }
  const linked: string[] = [];
  for (const name of thirdParty) {
    const installed = sources.map((folder) => installedPath(folder, name)).find((path) => existsSync(path));
    if (installed === undefined) continue; // an optional peer the repository does not install
    if (existsSync(installedPath(root, name))) continue;
    mkdirSync(dirname(installedPath(root, name)), { recursive: true });
    symlinkSync(installed, installedPath(root, name), 'dir');
    linked.push(name);
  }
  return { clawsmith, linked };
}
