import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PackageManifest, PublishedPackage } from './pack-packages.js';

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

function installedPath(projectRoot: string, name: string): string {
  return join(projectRoot, 'node_modules', ...name.split('/'));
}

/**
 * Creates the consumer project: each tarball is unpacked into its `node_modules` as npm would
 * place it, the example files of every package are copied to `examples/<package folder>/`, and
 * the third-party packages the tarballs declare (dependencies, optional and peer dependencies)
 * are linked from the repository's installed copies. Linking instead of `npm install` keeps the
 * check offline on a fresh clone, whose npm cache holds tarballs but no registry metadata.
 */
export function createConsumerProject(
  repositoryRoot: string,
  packages: readonly PublishedPackage[],
  tarballs: ReadonlyMap<string, string>,
  scratch: string,
): ConsumerProject {
  const root = join(scratch, 'consumer');
  mkdirSync(join(root, 'node_modules'), { recursive: true });
  const declared = new Set(CONSUMER_DEPENDENCIES);
  for (const pkg of packages) {
    const tarball = tarballs.get(pkg.name);
    if (!tarball) throw new Error(`npm pack produced no tarball for ${pkg.name}`);
    const target = installedPath(root, pkg.name);
    mkdirSync(target, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
    const manifest = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as PackageManifest;
    for (const field of [manifest.dependencies, manifest.optionalDependencies, manifest.peerDependencies])
      for (const name of Object.keys(field ?? {})) if (!name.startsWith('@clawsmith/')) declared.add(name);
  }
  for (const name of declared) {
    const installed = installedPath(repositoryRoot, name);
    if (!existsSync(installed)) continue; // an optional peer the repository does not install
    mkdirSync(dirname(installedPath(root, name)), { recursive: true });
    symlinkSync(installed, installedPath(root, name), 'dir');
  }
  const examples: string[] = [];
  for (const pkg of packages) {
    const folder = join(pkg.folder, 'examples');
    if (!existsSync(folder)) continue;
    const name = pkg.folder.split(/[/\\]/).pop() as string;
    for (const file of readdirSync(folder).filter((entry) => entry.endsWith('.ts'))) {
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
