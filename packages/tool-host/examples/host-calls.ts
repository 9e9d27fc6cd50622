import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openToolHost } from '@clawsmith/tool-host';

const scratch = mkdtempSync(join(tmpdir(), 'tool-host-example-'));
const workspaceRoot = join(scratch, 'workspace');
mkdirSync(workspaceRoot);
writeFileSync(join(workspaceRoot, 'notes.txt'), 'owls hunt at night\n');
const host = await openToolHost({ home: join(scratch, 'home'), workspaceRoot }); // mode `default`
try {
  console.log(await host.decide('edit_file', { path: 'notes.txt', oldText: 'night', newText: 'dusk' })); // ask
  const step = await host.beginStep(); // one restore point for the calls until endStep
  const edit = await host.call(
    'edit_file',
    { path: 'notes.txt', oldText: 'night', newText: 'dusk' },
    { approved: true },
  );
  const refused = await host.call('run_command', { command: 'rm -rf ~' }); // asks; nobody to ask: denied
  await host.endStep();
  console.log(edit.status, refused.status, refused.code); // success denied permission_denied
  await host.undo(step);
  console.log(readFileSync(join(workspaceRoot, 'notes.txt'), 'utf8').trim()); // owls hunt at night
} finally {
  await host.close();
  rmSync(scratch, { recursive: true, force: true });
}
