// The test-only entry point of @clawsmith/core (`@clawsmith/core/testing`): what tests and
// benchmarks of other packages need to play another process writing to the same home. An
// application goes through AgentCore, which keeps the order of events and recovers crashed turns.

export { SessionStore } from './store/session-store.js';
