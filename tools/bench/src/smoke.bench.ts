// Checks the benchmark harness itself: a no-op beside a 1 ms wait.
import { measure, report } from './measure.js';

const reference = await measure('no-op', () => undefined, 50);
const wait = await measure('1 ms wait', () => new Promise((resolve) => setTimeout(resolve, 1)), 20);
report('harness', reference, [wait]);
