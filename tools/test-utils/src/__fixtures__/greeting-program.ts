// Test support for bundled-fixture.test.ts: a TypeScript program that imports a sibling module
// (bundled) and zod (left to Node), and prints what both give it.
import { z } from 'zod';
import { greeting } from './greeting.js';

const name = z.string().parse(process.argv[2]);
const typed: string = greeting(name);
process.stdout.write(`${typed} ${typeof z.object}\n`);
