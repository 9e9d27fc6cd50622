import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { talksToModel, usesPrivateTestUtilities } from './example-imports.js';
import { installPackages, type UnpackedPackages } from './install-packages.js';
import type { PublishedPackage } from './pack-packages.js';

/** Packages a consumer's own code imports besides clawsmith's, as a team's project would list them. */
// What the consumer installs itself: zod (a peer), zod 3 for the refusal check, sqlite for the
// examples, and what an example's own `npm install -E` comment names (mcp's reference server).
const CONSUMER_DEPENDENCIES = [
  'zod',
  'zod3',
  '@types/node',
  '@types/better-sqlite3',
  'better-sqlite3',
  'kysely',
  '@modelcontextprotocol/server-everything',
];

/** A temporary project outside the repository with the packed packages installed. */
export interface ConsumerProject {
  readonly root: string;
  /** The example files copied in, relative to `root/examples`, for example `core/agent-turn.ts`. */
  readonly examples: readonly string[];
}

/**
 * Unpacks each package's tarball to `scratch/unpacked/<package folder>`, as npm would place it
 * in a `node_modules`. Returns the unpacked folder of each package by name.
 */
export function unpackTarballs(
  packages: readonly PublishedPackage[],
  tarballs: ReadonlyMap<string, string>,
  scratch: string,
): Map<string, string> {
  const unpacked = new Map<string, string>();
  for (const pkg of packages) {
    const tarball = tarballs.get(pkg.name);
    if (!tarball) throw new Error(`npm pack produced no tarball for ${pkg.name}`);
    const target = join(scratch, 'unpacked', basename(pkg.folder));
    mkdirSync(target, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
    unpacked.set(pkg.name, target);
  }
  return unpacked;
}

/**
 * Creates the shared consumer project: every package installed together (see
 * {@link installPackages}) beside what the consumer itself uses, and the example files of every
 * package copied to `examples/<package folder>/`.
 */
export function createConsumerProject(
  repositoryRoot: string,
  packages: readonly PublishedPackage[],
  unpacked: UnpackedPackages,
  scratch: string,
): ConsumerProject {
  const root = join(scratch, 'consumer');
  installPackages(root, [...packages.map((pkg) => pkg.name), ...CONSUMER_DEPENDENCIES], unpacked, repositoryRoot);
  const examples: string[] = [];
  for (const pkg of packages) {
    const folder = join(pkg.folder, 'examples');
    if (!existsSync(folder)) continue;
    const name = basename(pkg.folder);
    for (const file of readdirSync(folder).filter((entry) => entry.endsWith('.ts'))) {
      if (usesPrivateTestUtilities(readFileSync(join(folder, file), 'utf8')) || talksToModel(join(folder, file)))
        continue;
      cpSync(join(folder, file), join(root, 'examples', name, file));
      examples.push(`${name}/${file}`);
    }
  }
  writeConsumerFiles(root);
  return { root, examples };
}

function writeConsumerFiles(root: string): void {
  const compilerOptions = {
    target: 'ES2022',
    // DOM: the MCP SDK's declarations name fetch types (`HeadersInit`) that only the DOM library
    // declares, so a consumer that checks libraries needs it (mcp's README says so).
    lib: ['ES2023', 'DOM'],
    types: ['node'],
    strict: true,
    skipLibCheck: false,
  };
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  writeFileSync(join(root, 'package.json'), json({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(
    join(root, 'tsconfig.node16.json'),
    json({
      compilerOptions: { ...compilerOptions, module: 'node16', moduleResolution: 'node16', outDir: 'dist' },
      include: ['examples'],
    }),
  );
  writeFileSync(
    join(root, 'tsconfig.bundler.json'),
    json({
      compilerOptions: { ...compilerOptions, module: 'preserve', moduleResolution: 'bundler', noEmit: true },
      include: ['examples'],
    }),
  );
}
