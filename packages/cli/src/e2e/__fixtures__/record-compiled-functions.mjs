// Test fixture: `node --import <this file> …` appends one line to the file named by
// CLAWSMITH_TEST_FUNCTION_LOG for every function the process compiles from source text
// (`new Function(…)`, as zod does for an object schema's parser): the start of its body.
import { appendFileSync } from 'node:fs';

const log = process.env.CLAWSMITH_TEST_FUNCTION_LOG;

if (log) {
  const record = (parameters) =>
    appendFileSync(log, `${JSON.stringify(String(parameters.at(-1) ?? '').slice(0, 80))}\n`);
  globalThis.Function = new Proxy(Function, {
    construct(target, parameters, newTarget) {
      record(parameters);
      return Reflect.construct(target, parameters, newTarget);
    },
    apply(target, self, parameters) {
      record(parameters);
      return Reflect.apply(target, self, parameters);
    },
  });
}
