import micromatch from 'micromatch';

/** Tests one string against a set of globs: true when any matches. */
export type GlobTest = (value: string) => boolean;

// Rules are checked on every call and compiling a glob costs far more than testing it, so each
// set of globs is compiled once: path globs by the identity of the rule's array (rules and the
// secret-file globs are long-lived), tool globs by their text.
const pathTests = new WeakMap<readonly string[], { exact?: GlobTest; ignoringCase?: GlobTest }>();
const toolTests = new Map<string, GlobTest>();
const TOOL_TESTS_KEPT = 256;

function compile(globs: readonly string[], options: micromatch.Options): GlobTest {
  const tests = globs.map((glob) => micromatch.matcher(glob, options));
  return (value) => tests.some((test) => test(value));
}

/** The test for a rule's path globs (`dot` on; `ignoringCase` for deny and ask rules). */
export function pathGlobTest(globs: readonly string[], ignoringCase: boolean): GlobTest {
  let compiled = pathTests.get(globs);
  if (compiled === undefined) pathTests.set(globs, (compiled = {}));
  const key = ignoringCase ? 'ignoringCase' : 'exact';
  return (compiled[key] ??= compile(globs, ignoringCase ? { dot: true, nocase: true } : { dot: true }));
}

/** The test for a rule's tool-name glob (`mcp_*`). */
export function toolGlobTest(glob: string): GlobTest {
  let test = toolTests.get(glob);
  if (test === undefined) {
    if (toolTests.size >= TOOL_TESTS_KEPT) toolTests.clear();
    test = compile([glob], {});
    toolTests.set(glob, test);
  }
  return test;
}
