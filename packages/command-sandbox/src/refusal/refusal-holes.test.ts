// Refusal holes found by outside test suites and probes: prompt expansion, deletes judged in
// their working folder, command names known only at run time, scripts built at run time.
import { readdirSync } from 'node:fs';
import { testdir } from '@clawsmith/test-utils';
import { describe, expect, it } from 'vitest';
import { evaluateCommandSafety, runCommand } from '../index.js';

const workspaceRoot = '/work/project';
const judge = (text: string, workingDirectory = workspaceRoot) =>
  evaluateCommandSafety(text, { workingDirectory, workspaceRoot, homes: ['/home/me'] });

describe('evaluateCommandSafety: what executes is refused, what does not is allowed', () => {
  it.each([
    ['echo "${v=`sudo reboot`}${v@P}"', 'privilege_escalation'],
    ['x=\'$(sudo reboot)\'; echo "${x@P}"', 'privilege_escalation'],
    ["x='`shutdown -h now`'; printf '%s' \"${x@P}\"", 'power_state'],
    ['echo "${PS1@P}"', 'unresolved_command'],
  ])('prompt expansion: refuses %s (%s)', (text, rule) => {
    expect(judge(text)).toMatchObject({ allowed: false, rule });
  });

  it.each(['x=\'$(sudo reboot)\'; echo "${x@E}" "${x@A}" "${x@K}" "${x@Q}" "${x@U}"', 'x=hello; echo "${x@P}"'])(
    'prompt expansion: allows transformations that do not run anything: %s',
    (text) => {
      expect(judge(text)).toEqual({ allowed: true });
    },
  );

  it.each([
    ['rm -rf .', '/etc'],
    ['rm -rf *', '/etc'],
    ['rm -rf ./', '/usr'],
    ['rm -rf .', '/home/me'],
    ['rm -rf *', '/home/me'],
    ['rm -rf .', '/'],
    ['rm -rf .', workspaceRoot],
    ['rm -rf *', workspaceRoot],
    ['cd .. && rm -rf project', workspaceRoot],
  ])('judges %s in its working folder %s', (text, folder) => {
    expect(judge(text, folder)).toMatchObject({ allowed: false, rule: 'recursive_delete_root' });
  });

  it.each([
    ['rm -rf build dist', workspaceRoot],
    ['rm -rf *', `${workspaceRoot}/build`],
    ['rm -rf bin', workspaceRoot],
    ['chmod -R u+w .', workspaceRoot],
    ["find . -name '*.pyc' -delete", workspaceRoot],
  ])('allows the ordinary delete %s in %s', (text, folder) => {
    expect(judge(text, folder)).toEqual({ allowed: true });
  });

  it.each([
    ['${X:-sudo} reboot', 'power_state'],
    ['$cmd sudo reboot', 'privilege_escalation'],
    ['f(){ "$@"; }; f sudo reboot', 'privilege_escalation'],
    ['alias x=sudo; x reboot', 'privilege_escalation'],
    ['eval "$(printf "sudo reboot")"', 'privilege_escalation'],
    ['bash -c "$(printf "sudo reboot")"', 'privilege_escalation'],
    ['source <(echo sudo reboot)', 'privilege_escalation'],
    ['echo c3VkbyByZWJvb3Q= | base64 -d | sh', 'privilege_escalation'],
    ['find -L / -delete', 'recursive_delete_root'],
    ['kill -9 $(echo 1)', 'kill_init'],
    ['rm -rf $(printf /opt)', 'recursive_delete_root'],
  ])('names and scripts known only at run time: refuses %s (%s)', (text, rule) => {
    expect(judge(text)).toMatchObject({ allowed: false, rule });
  });

  it.each(['cmd=ls; $cmd -la', '"${EDITOR:-vi}" notes.txt', 'f(){ echo "$@"; }; f hello', 'eval "$(ssh-agent -s)"'])(
    'allows the ordinary dynamic command %s',
    (text) => {
      expect(judge(text)).toEqual({ allowed: true });
    },
  );
});

describe('evaluateCommandSafety: arrays and positional parameters', () => {
  it.each([
    ['a=(sudo reboot); "${a[@]}"', 'privilege_escalation'],
    ['a=(sudo reboot); ${a[*]}', 'privilege_escalation'],
    ['declare -a a=(shutdown -h now); "${a[@]}"', 'power_state'],
    ['a[0]=sudo; a[1]=reboot; "${a[@]}"', 'privilege_escalation'],
    ['a=(); a+=(sudo); "${a[@]}" reboot', 'privilege_escalation'],
    ['a=(echo hi); a=(sudo reboot); "${a[@]}"', 'privilege_escalation'],
    ['a=(x sudo); "${a[1]}" reboot', 'privilege_escalation'],
    ['a=(rm -rf /); "${a[@]}"', 'recursive_delete_root'],
    ['a=(/ x); rm -rf "${a[@]}"', 'recursive_delete_root'],
    ['a=(/opt x); rm -rf ${a[0]}', 'recursive_delete_root'],
    ['set -- sudo reboot; "$@"', 'privilege_escalation'],
    ['set -- kill -9 1; $*', 'kill_init'],
    ['mapfile -t a < <(printf "sudo\\nreboot"); "${a[@]}"', 'privilege_escalation'],
    ['read -ra a <<< "sudo reboot"; "${a[@]}"', 'privilege_escalation'],
  ])('refuses %s (%s)', (text, rule) => {
    expect(judge(text)).toMatchObject({ allowed: false, rule });
  });

  it.each([
    'a=(ls -la); "${a[@]}"',
    'files=(a.txt "b c.txt"); rm -f "${files[@]}"',
    'args=(-m "fix /"); git commit "${args[@]}"',
    'a=(sudo reboot); echo "${a[@]}"',
    'a=(sudo reboot); "${a[*]}"',
    'set -- a b; echo "$@"',
    'mapfile -t lines < notes.txt; echo "${lines[@]}"',
  ])('allows %s', (text) => {
    expect(judge(text)).toEqual({ allowed: true });
  });
});

describe('runCommand judges deletes in the real working folder', () => {
  it('refuses rm -rf . at the workspace root and allows rm -rf * in a sub-folder', async () => {
    const workspace = testdir({ 'src/a.ts': 'a', 'build/out.js': 'o', 'build/map.js': 'm' });
    await expect(runCommand({}, { workspaceRoot: workspace, command: 'rm -rf .' })).rejects.toMatchObject({
      code: 'command_refused',
      message: expect.stringContaining('the workspace root'),
    });
    expect(readdirSync(workspace).sort()).toEqual(['build', 'src']);
    const allowed = await runCommand({}, { workspaceRoot: workspace, command: 'rm -rf *', cwd: 'build' });
    expect(allowed.exitCode).toBe(0);
    expect(readdirSync(workspace).sort()).toEqual(['build', 'src']);
    expect(readdirSync(`${workspace}/build`)).toEqual([]);
  });
});
