// Language server diagnostics: cold first diagnostics of one file in a 200-file TypeScript
// project, and warm diagnostics right after an edit, beside a one-shot `tsc --noEmit` of the same project.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createLspService, createLspTools } from '@clawsmith/lsp';
import type { ToolExecutionContext } from '@clawsmith/tool-protocol';
import { measure, report } from './measure.js';

const FILES = 200;
const root = mkdtempSync(join(tmpdir(), 'clawsmith-bench-lsp-'));
writeFileSync(
  join(root, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', noEmit: true, types: [] },
    include: ['src'],
  }),
);
mkdirSync(join(root, 'src'));
for (let index = 0; index < FILES; index += 1) {
  const previous = index === 0 ? '' : `import { value${index - 1} } from './module${index - 1}.js';\n`;
  const body = index === 0 ? '1' : `value${index - 1} + ${index}`;
  writeFileSync(
    join(root, 'src', `module${index}.ts`),
    `${previous}export const value${index}: number = ${body};\nexport function describe${index}(input: string): string {\n  return input.repeat(${index % 5});\n}\n`,
  );
}
const target = join(root, 'src', `module${FILES - 1}.ts`);
const context: ToolExecutionContext = {
  authorized: true,
  workspaceRoot: root,
  sessionId: 'bench',
  turnId: 'bench',
  toolCallId: 'bench',
  signal: new AbortController().signal,
};
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');

function diagnosticsTool(service: ReturnType<typeof createLspService>) {
  return createLspTools(service).find((tool) => tool.name === 'lsp_diagnostics')!;
}

try {
  const reference = await measure(
    'tsc --noEmit (one-shot, same project)',
    () => execFileSync(process.execPath, [tsc, '-p', root]),
    3,
    0,
  );
  const cold = await measure(
    'cold: first lsp_diagnostics (server start + project load)',
    async () => {
      const service = createLspService();
      await diagnosticsTool(service).execute({ path: `src/module${FILES - 1}.ts` }, context);
      await service.close();
    },
    3,
    0,
  );
  const service = createLspService();
  const tool = diagnosticsTool(service);
  await tool.execute({ path: `src/module${FILES - 1}.ts` }, context);
  let edit = 0;
  const warm = await measure(
    'warm: lsp_diagnostics after an edit',
    async () => {
      edit += 1;
      // Every other edit introduces a type error, so the answer changes each time.
      writeFileSync(target, `export const edited${edit}: number = ${edit % 2 === 0 ? `'text'` : edit};\n`);
      const text = String(await tool.execute({ path: `src/module${FILES - 1}.ts` }, context));
      if ((edit % 2 === 0) !== text.includes('TS2322'))
        throw new Error(`stale diagnostics after edit ${edit}: ${text}`);
    },
    20,
    2,
  );
  await service.close();
  report(`lsp diagnostics, ${FILES}-file TypeScript project`, reference, [cold, warm]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
