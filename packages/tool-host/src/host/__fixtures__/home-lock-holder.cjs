// Another clawsmith process writing to a home (argv: better-sqlite3's path, the database): it takes
// the write lock, says `locked`, and lets go after 6.5 s, longer than the 5 s a checkpoints
// database waits by default.
const Database = require(process.argv[2]);
const db = new Database(process.argv[3]);
db.exec('BEGIN IMMEDIATE');
console.log('locked');
setTimeout(() => {
  db.exec('COMMIT');
  db.close();
}, 6_500);
