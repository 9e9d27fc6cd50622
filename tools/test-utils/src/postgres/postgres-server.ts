import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reapServerWithOwner } from './server-reaper.js';

/** A PostgreSQL server of its own, in a temporary folder, for a test run. */
export interface PostgresServer {
  /** `postgres://clawsmith:<password>@127.0.0.1:<port>/postgres`: the superuser on TCP, password required. */
  readonly url: string;
  /** The folder of the server: its data, its log and its Unix socket. */
  readonly folder: string;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Where Debian's `postgresql` package put the server's programs: the newest
 * `/usr/lib/postgresql/<version>/bin`, else the folder of an `initdb` on the PATH.
 */
function postgresBinaries(): string {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => existsSync(join(root, name, 'bin', 'pg_ctl')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(root, versions[0], 'bin');
  }
  for (const folder of (process.env.PATH ?? '').split(':'))
    if (folder !== '' && existsSync(join(folder, 'initdb')) && existsSync(join(folder, 'pg_ctl'))) return folder;
  throw new Error(
    'PostgreSQL is not installed, and the tests of both database engines need its server programs: install the `postgresql` package (apt-get install postgresql), as .ci/run does.',
  );
}

/**
 * The user the server runs as. PostgreSQL refuses to run as root, so a root test run hands the
 * folder to the package's `postgres` user (else `nobody`) and runs the programs through `runuser`.
 */
function serverUser(): { name: string; uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      return { name, uid, gid };
    } catch {
      // no such user: try the next one
    }
  }
  throw new Error('Running as root, and neither a `postgres` nor a `nobody` user exists to run PostgreSQL as.');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Starts a real PostgreSQL server (`initdb` + `pg_ctl`) in a new temporary folder, listening on
 * 127.0.0.1 at a free port and on a Unix socket in that folder only, with a superuser
 * `clawsmith` whose random password the TCP URL carries. Durability is off (`fsync=off`): the
 * folder is thrown away with {@link PostgresServer.stop}, or by a reaper when this process ends
 * without stopping it.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const binaries = postgresBinaries();
  const user = serverUser();
  const folder = mkdtempSync(join(tmpdir(), 'clawsmith-postgres-'));
  const data = join(folder, 'data');
  const password = randomBytes(12).toString('hex');
  writeFileSync(join(folder, 'password'), `${password}\n`, { mode: 0o600 });
  if (user) {
    chownSync(folder, user.uid, user.gid);
    chownSync(join(folder, 'password'), user.uid, user.gid);
  }
  const run = (program: string, args: string[]) => {
    const [command, prefix] = user
      ? ['runuser', ['-u', user.name, '--', join(binaries, program)]]
      : [join(binaries, program), []];
    return execFileSync(command, [...prefix, ...args], {
      cwd: folder,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
    });
  };
  try {
    run('initdb', [
      '-D',
      data,
      '-U',
      'clawsmith',
      `--pwfile=${join(folder, 'password')}`,
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`initdb failed: ${(error as { stderr?: string }).stderr ?? String(error)}`, { cause: error });
  }
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    const settings = [
      `-p ${port}`,
      `-k ${folder}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=300',
    ].join(' ');
    try {
      run('pg_ctl', ['-D', data, '-l', join(folder, 'server.log'), '-o', settings, '-w', '-t', '60', 'start']);
      break;
    } catch (error) {
      // Another program may have taken the port between our probe and the server's bind.
      const log = existsSync(join(folder, 'server.log')) ? readFileSync(join(folder, 'server.log'), 'utf8') : '';
      if (attempt < 3 && /could not bind|Address already in use/i.test(log)) continue;
      rmSync(folder, { recursive: true, force: true });
      throw new Error(`PostgreSQL did not start: ${log || String(error)}`, { cause: error });
    }
  }
  const pgCtl = join(binaries, 'pg_ctl');
  reapServerWithOwner({
    folder,
    stopCommand: [
      ...(user ? ['runuser', '-u', user.name, '--'] : []),
      pgCtl,
      '-D',
      data,
      '-m',
      'immediate',
      '-w',
      'stop',
    ],
  });
  let stopped = false;
  return {
    url: `postgres://clawsmith:${password}@127.0.0.1:${port}/postgres`,
    folder,
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}
