// The lint rule `no-import-cycle`: no file of a package may import, directly or through other
// files of the package, a file that imports it back.
import { relative } from 'node:path';
import { chainBack, relativeImports } from './import-graph.mjs';

/**
 * Reports every relative import (static, re-export, types only, `import()`, `require()`) whose
 * target leads back to the importing file, naming the circle. Only relative imports are followed:
 * across packages, the layer rules already forbid a circle.
 * @type {import('eslint').Rule.RuleModule}
 */
export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import circles among the files of a package.' },
    schema: [],
    messages: {
      cycle:
        'Import circle: {{chain}}. Move what these files share into a file that imports none of them, so the imports read from the leaves up.',
    },
  },
  create(context) {
    const file = context.physicalFilename;
    const { sourceCode } = context;
    return {
      Program(node) {
        const unreaching = new Set();
        for (const entry of relativeImports(file, sourceCode.text)) {
          const chain = chainBack(entry.target, file, unreaching);
          if (chain === undefined) continue;
          const names = [file, ...chain].map((step) => relative(context.cwd, step));
          context.report({
            node,
            loc: { start: sourceCode.getLocFromIndex(entry.start), end: sourceCode.getLocFromIndex(entry.end) },
            messageId: 'cycle',
            data: { chain: names.join(' -> ') },
          });
        }
      },
    };
  },
};
