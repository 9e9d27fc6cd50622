// Starts a test PostgreSQL server, prints its folder and URL as one JSON line, and waits to be
// killed without ever stopping the server.
import { startPostgresServer } from '../postgres-server.js';

const server = await startPostgresServer();
process.stdout.write(`${JSON.stringify({ folder: server.folder, url: server.url })}\n`);
setInterval(() => {}, 1 << 30);
