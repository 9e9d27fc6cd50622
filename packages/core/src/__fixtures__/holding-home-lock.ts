// Test support: another process holding a clawsmith home's write lock. Opens the database named
// by its argument, takes the write lock (BEGIN IMMEDIATE), prints LOCKED, and holds it until a
// line arrives on stdin; then it commits and prints RELEASED.
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';

const database = new Database(process.argv[2] as string);
database.exec('begin immediate');
process.stdout.write('LOCKED\n');
for await (const _line of createInterface({ input: process.stdin })) {
  database.exec('commit');
  database.close();
  process.stdout.write('RELEASED\n');
  break;
}
