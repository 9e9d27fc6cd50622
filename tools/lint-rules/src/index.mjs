// The repository's own ESLint rules, as a flat-config plugin: `plugins: { clawsmith: plugin }`,
// then `'clawsmith/no-import-cycle': 'error'`. Everything exported here is public to the repository.
import { noImportCycle } from './no-import-cycle.mjs';

/** The plugin object ESLint's flat config takes. */
export const plugin = {
  meta: { name: '@clawsmith/lint-rules' },
  rules: { 'no-import-cycle': noImportCycle },
};
