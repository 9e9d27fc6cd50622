// Another clawsmith process writing to a home (argv: better-sqlite3's path, the database): it takes
// the write lock, says `locked`, and lets go after 6.5 s, longer than the 5 s a checkpoints
// database waits by default.
import { createRequire } from 'node:module';

type Connection = { exec(sql: string): void; close(): void };
const [sqlite, file] = process.argv.slice(2) as [string, string];
const Database = createRequire(import.meta.url)(sqlite) as new (path: string) => Connection;
const db = new Database(file);
db.exec('BEGIN IMMEDIATE');
console.log('locked');
setTimeout(() => {
  db.exec('COMMIT');
  db.close();
}, 6_500);
