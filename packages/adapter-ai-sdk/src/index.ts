// Everything exported here is the public API of @clawsmith/adapter-ai-sdk; the surface is pinned
// by public-surface.test.ts. A change to this list is a deliberate change with a changeset.

export type { AiSdkToolsOptions } from './ai-sdk-tools.js';
export { aiSdkTools } from './ai-sdk-tools.js';
