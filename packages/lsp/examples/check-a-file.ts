import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClawsmithError, type ToolExecutionContext } from '@clawsmith/tool-protocol';
import { createLspService, createLspTools } from '@clawsmith/lsp';

// The TypeScript server, an optional peer: npm install -E typescript-language-server@5.3.0 typescript@5.9.3
const workspaceRoot = mkdtempSync(join(tmpdir(), 'clawsmith-lsp-example-'));
mkdirSync(join(workspaceRoot, 'src'));
writeFileSync(join(workspaceRoot, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, types: [] } }));
writeFileSync(
  join(workspaceRoot, 'src/math.ts'),
  'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
);
writeFileSync(
  join(workspaceRoot, 'src/main.ts'),
  "import { add } from './math';\n\nconst total: string = add(1, 2);\n",
);

// One service per process: it starts a server per workspace and language at the first call.
const lsp = createLspService({ changedFiles: { changedFiles: async () => [] } }); // the host answers from its checkpoints
const [diagnostics, definition] = createLspTools(lsp);
const context: ToolExecutionContext = {
  authorized: true, // the read-only lsp tools do not check it; core sets it after its permission policy
  workspaceRoot,
  sessionId: 's',
  turnId: 't',
  toolCallId: 'c',
  signal: new AbortController().signal,
};
try {
  // execute trusts its input: parse it with the tool's schema first, as core does.
  console.log(await diagnostics.execute(diagnostics.inputSchema.parse({ path: 'src/main.ts' }), context));
  // 1 error in 1 file (checked: src/main.ts).
  // src/main.ts:3:7 error TS2322: Type 'number' is not assignable to type 'string'.
  console.log(
    await definition.execute(definition.inputSchema.parse({ path: 'src/main.ts', line: 3, column: 23 }), context),
  );
  // Definition of src/main.ts:3:23 (add):
  // src/math.ts:1:17  export function add(a: number, b: number): number {
  // A refusal is thrown as a ClawsmithError with a stable code; core turns it into a result for the model.
  await diagnostics.execute({ path: '../outside.ts' }, context).catch((error: unknown) => {
    if (!ClawsmithError.isInstance(error)) throw error;
    console.log('refused:', error.code); // refused: path_outside_workspace
  });
} finally {
  await lsp.close(); // shutdown, then the server's process group is killed
  rmSync(workspaceRoot, { recursive: true, force: true });
}
