// Test fixture: `node --import <this file> …` appends the URL of every ES module the process
// loads, one a line, to the file named by CLAWSMITH_TEST_MODULE_LOG. Node runs module hooks in a
// thread of their own, which imports this file again: only the main thread registers them.
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) register(import.meta.url, { data: { log: process.env.CLAWSMITH_TEST_MODULE_LOG } });

let log;

export function initialize(data) {
  log = data?.log;
}

export async function load(url, context, nextLoad) {
  if (log) appendFileSync(log, `${url}\n`);
  return nextLoad(url, context);
}
