// Everything exported here is the public API of @clawsmith/test-utils (private to this repository).
export { createTestdir, testdir, writeTree } from './testdir.js';
export type { FileEntry, SymlinkEntry, TemporaryTree, TestTree } from './testdir.js';
export { bundledFixture } from './bundled-fixture.js';
export { startLineChild } from './line-child.js';
export type { LineChild } from './line-child.js';
export { snapshotTree } from './snapshot-tree.js';
export { preparedOncePerFile } from './prepared-folders.js';
export type { PreparedFolderPaths } from './prepared-folders.js';
export {
  exampleMarker,
  exampleModelScript,
  readmeExample,
  runExample,
  runExampleWithModel,
  runWithScriptedModel,
  type ExampleStart,
} from './readme-example.js';
export type { ReadmeExampleSuite } from './readme-example-suite.js';
export { describeReadmeExample } from './readme-example-suite.js';
export { startOtlpReceiver } from './otlp-receiver.js';
export type { OtlpReceiver, ReceivedMetric, ReceivedSpan } from './otlp-receiver.js';
export type { ScenarioHost } from './adapter-scenario.js';
export {
  ADAPTER_SCENARIO_ASKS,
  adapterScenarioSteps,
  adapterScenarioWorkspace,
  expectAdapterScenarioRun,
  expectAdapterScenarioUndo,
  scenarioPersonApproves,
} from './adapter-scenario.js';
export { refuseNonLoopbackFetch } from './loopback-fetch.js';
