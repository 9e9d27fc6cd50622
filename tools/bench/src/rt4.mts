import { mkdtempSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkspaceWall } from '@clawsmith/command-sandbox';
import { createDirectWorkspaceWall, WORKSPACE_MUTATION_SOURCE } from '@clawsmith/tool-protocol';
const LOOP = `const apply = ${WORKSPACE_MUTATION_SOURCE}(require('fs'));
let pending = ''; process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => { pending += c; for (let e = pending.indexOf('\\n'); e >= 0; e = pending.indexOf('\\n')) { const l = pending.slice(0, e); pending = pending.slice(e + 1); process.stdout.write(JSON.stringify(apply(JSON.parse(l))) + '\\n'); } });`;
const child = spawn(process.execPath, ['-e', LOOP], { stdio: ['pipe', 'pipe', 'inherit'] });
child.stdout.setEncoding('utf8'); let waiter: (() => void) | undefined;
child.stdout.on('data', () => { const w = waiter; waiter = undefined; w?.(); });
const plain = { apply: (b: any) => new Promise<void>((r) => { waiter = r; child.stdin.write(JSON.stringify(b) + '\n'); }) };
const walls: [string, any][] = [['direct', createDirectWorkspaceWall()], ['plain-child', plain], ['bwrap', createWorkspaceWall({ mode: 'bubblewrap' })]];
const mode = process.argv[2];
const res: Record<string, number[]> = {};
const wss = walls.map(() => mkdtempSync(join(tmpdir(), 'rt-')));
for (let i = 0; i < 600; i++) for (const [k, [name, w]] of walls.entries()) {
  const ws = wss[k]!; const p = join(ws, 'f' + i);
  const batch = mode === 'mkdir' ? { workspaceRoot: ws, mutations: [{ kind: 'mkdir', path: p }] } : { workspaceRoot: ws, mutations: [] };
  const s = performance.now(); await w.apply(batch); (res[name] ??= []).push(performance.now() - s);
}
for (const [n, a] of Object.entries(res)) console.log(mode, n, [...a.slice(100)].sort((x, y) => x - y)[250]!.toFixed(3));
child.kill(); await walls[2]![1].close();
