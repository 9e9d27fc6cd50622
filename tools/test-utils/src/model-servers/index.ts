// Local model servers for black-box tests and benches: real HTTP on 127.0.0.1 speaking the
// OpenAI Chat Completions and Anthropic Messages streaming formats. A subpath of its own, so that
// the tokenizer the windowed server loads is not loaded by every test that imports test-utils.
export {
  answerOpenAIWhole,
  sse,
  startStreamingModelServer,
  streamAnthropic,
  streamOpenAI,
  toolResultsOf,
} from './streaming-model-server.js';
export type { ModelServerOptions, ModelStep, ServedUsage, StreamingModelServer } from './streaming-model-server.js';
export { startWindowedModelServer } from './windowed-model-server.js';
export type { WindowedModelServer, WindowedRequest } from './windowed-model-server.js';
export {
  LONG_SESSION_FILES,
  LONG_SESSION_STEPS_PER_TURN,
  LONG_SESSION_TOOL_STEPS,
  LONG_SESSION_TURNS,
  longSessionCount,
  longSessionStep,
} from './long-session-scenario.js';
