import { catastrophicTarget, isBlockDevice, isSysrqPath, type TargetContext } from './catastrophic-targets.js';
import type { Field } from '../shell/word-fields.js';

/** The names of the catastrophic-command rules; a refusal carries one of them. */
export const COMMAND_SAFETY_RULES = Object.freeze([
  'privilege_escalation',
  'disk_format',
  'block_device_write',
  'recursive_delete_root',
  'recursive_permission_root',
  'power_state',
  'kill_init',
  'sysrq_trigger',
  'fork_bomb',
  'unresolved_command',
  'unparseable_command',
  'nesting_too_deep',
] as const);

/** One of {@link COMMAND_SAFETY_RULES}. */
export type CommandSafetyRule = (typeof COMMAND_SAFETY_RULES)[number];

/** A rule that matched, and why, in words a person can act on. */
export interface RuleMatch {
  readonly rule: CommandSafetyRule;
  readonly reason: string;
}

const PRIVILEGE = new Set(['sudo', 'su', 'doas', 'pkexec', 'sudoedit', 'run0', 'runuser']);
const DISK_TOOLS = new Set([
  'mke2fs',
  'mkswap',
  'mkdosfs',
  'mkntfs',
  'mkexfatfs',
  'wipefs',
  'fdisk',
  'sfdisk',
  'cfdisk',
  'gdisk',
  'parted',
  'blkdiscard',
]);
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
const POWER_VERBS = new Set(['poweroff', 'reboot', 'halt', 'kexec', 'soft-reboot']);
const PERMISSION_TOOLS = new Set(['chmod', 'chown', 'chgrp', 'chattr', 'setfacl']);
const COPY_TOOLS = new Set(['cp', 'mv', 'install', 'ln', 'rsync']);

function isOption(field: Field): boolean {
  return field.text.startsWith('-') && field.text !== '-';
}

function hasShortFlag(args: readonly Field[], letters: string): boolean {
  return args.some(
    (field) => /^-[A-Za-z]+$/.test(field.text) && [...letters].some((letter) => field.text.includes(letter)),
  );
}

function operands(args: readonly Field[]): Field[] {
  const result: Field[] = [];
  let ended = false;
  for (const field of args) {
    if (!ended && field.text === '--') ended = true;
    else if (ended || !isOption(field)) result.push(field);
  }
  return result;
}

function firstTarget(args: readonly Field[], context: TargetContext): string | undefined {
  for (const field of operands(args)) {
    const target = catastrophicTarget(field, context);
    if (target) return target;
  }
  return undefined;
}

function checkRemove(args: readonly Field[], context: TargetContext): RuleMatch | undefined {
  if (args.some((field) => field.text === '--no-preserve-root')) {
    return { rule: 'recursive_delete_root', reason: 'rm --no-preserve-root exists only to delete /' };
  }
  const recursive = hasShortFlag(args, 'rR') || args.some((field) => field.text === '--recursive');
  const target = recursive ? firstTarget(args, context) : undefined;
  return target ? { rule: 'recursive_delete_root', reason: `rm -r would delete ${target}` } : undefined;
}

function checkPermissions(name: string, args: readonly Field[], context: TargetContext): RuleMatch | undefined {
  const recursive = hasShortFlag(args, 'R') || args.some((field) => field.text === '--recursive');
  const target = recursive ? firstTarget(args, context) : undefined;
  return target ? { rule: 'recursive_permission_root', reason: `${name} -R would change ${target}` } : undefined;
}

function checkFind(args: readonly Field[], context: TargetContext): RuleMatch | undefined {
  if (!args.some((field) => field.text === '-delete')) return undefined;
  // -H, -L, -P, -D debugopts and -Olevel come before the starting points.
  let start = 0;
  while (start < args.length && /^-([HLP]|D|O\d*)$/.test(args[start]!.text))
    start += args[start]!.text === '-D' ? 2 : 1;
  for (const field of args.slice(start)) {
    if (field.text.startsWith('-') || field.text === '(' || field.text === '!') break;
    const target = catastrophicTarget(field, context);
    if (target) return { rule: 'recursive_delete_root', reason: `find -delete would delete ${target}` };
  }
  return undefined;
}

function checkKill(args: readonly Field[]): RuleMatch | undefined {
  const first = args[0]?.text ?? '';
  let rest = args;
  if (first === '-s' || first === '-n') rest = args.slice(2);
  else if (first.startsWith('-') && first !== '--' && args.length > 1) rest = args.slice(1);
  let ended = false;
  for (const field of rest) {
    if (!ended && field.text === '--') ended = true;
    else if (field.text === '1') return { rule: 'kill_init', reason: 'kill of process 1 (init) takes the system down' };
    else if (field.text === '-1')
      return { rule: 'kill_init', reason: 'kill -1 signals every process the user may signal' };
  }
  return undefined;
}

function checkDeviceWrite(name: string, args: readonly Field[]): RuleMatch | undefined {
  if (name === 'dd') {
    const output = args.find((field) => field.text.startsWith('of='));
    if (output && isBlockDevice({ text: output.text.slice(3), dynamic: output.dynamic })) {
      return { rule: 'block_device_write', reason: `dd would write to the device ${output.text.slice(3)}` };
    }
    if (output && isSysrqPath({ text: output.text.slice(3), dynamic: output.dynamic })) {
      return { rule: 'sysrq_trigger', reason: 'dd would write to the kernel SysRq trigger' };
    }
    return undefined;
  }
  const targets = COPY_TOOLS.has(name)
    ? operands(args).slice(-1)
    : ['tee', 'shred', 'truncate'].includes(name)
      ? operands(args)
      : [];
  for (const target of targets) {
    if (isBlockDevice(target))
      return { rule: 'block_device_write', reason: `${name} would write to the device ${target.text}` };
    if (isSysrqPath(target))
      return { rule: 'sysrq_trigger', reason: `${name} would write to the kernel SysRq trigger` };
  }
  return undefined;
}

function checkDiskTool(name: string, args: readonly Field[]): RuleMatch | undefined {
  if (name.startsWith('mkfs') || DISK_TOOLS.has(name))
    return { rule: 'disk_format', reason: `${name} formats or repartitions disks` };
  const texts = args.map((field) => field.text);
  if (name === 'sgdisk' && texts.some((text) => /^(--zap-all|--zap|--clear|-[A-Za-z]*[Zzo][A-Za-z]*)$/.test(text))) {
    return { rule: 'disk_format', reason: 'sgdisk would wipe a partition table' };
  }
  if (
    name === 'hdparm' &&
    texts.some((text) => text.startsWith('--security-erase') || text === '--trim-sector-ranges')
  ) {
    return { rule: 'disk_format', reason: 'hdparm would erase a disk' };
  }
  if (name === 'cryptsetup' && texts.some((text) => ['luksFormat', 'erase', 'luksErase'].includes(text))) {
    return { rule: 'disk_format', reason: 'cryptsetup would destroy an encrypted volume' };
  }
  if (name === 'nvme' && texts.some((text) => text === 'format' || text === 'sanitize')) {
    return { rule: 'disk_format', reason: 'nvme would format a disk' };
  }
  return undefined;
}

function checkPower(name: string, args: readonly Field[]): RuleMatch | undefined {
  if (POWER.has(name)) return { rule: 'power_state', reason: `${name} stops or restarts the machine` };
  const texts = args.map((field) => field.text);
  if ((name === 'init' || name === 'telinit') && texts.some((text) => text === '0' || text === '6')) {
    return { rule: 'power_state', reason: `${name} ${texts.join(' ')} stops or restarts the machine` };
  }
  if ((name === 'systemctl' || name === 'loginctl') && texts.some((text) => POWER_VERBS.has(text))) {
    return { rule: 'power_state', reason: `${name} would stop or restart the machine` };
  }
  return undefined;
}

/**
 * Checks one simple command, after wrappers are peeled off, against the catastrophic rules.
 * `name` is the command's base name (`/bin/rm` and `\rm` arrive as `rm`).
 */
export function checkSimpleCommand(
  name: string,
  args: readonly Field[],
  context: TargetContext,
): RuleMatch | undefined {
  if (PRIVILEGE.has(name))
    return { rule: 'privilege_escalation', reason: `${name} runs commands with other privileges` };
  if (name === 'rm') return checkRemove(args, context);
  // Only `rm -r` of the workspace root itself is refused: `chmod -R u+w .` and
  // `find . -name '*.pyc' -delete` there are ordinary.
  const { workspaceRoot: _workspaceRoot, ...outsideWorkspace } = context;
  if (PERMISSION_TOOLS.has(name)) return checkPermissions(name, args, outsideWorkspace);
  if (name === 'find') return checkFind(args, outsideWorkspace);
  if (name === 'kill') return checkKill(args);
  if (name === 'killall5') return { rule: 'kill_init', reason: 'killall5 signals every process' };
  return checkDiskTool(name, args) ?? checkPower(name, args) ?? checkDeviceWrite(name, args);
}

/** Checks the target of an output redirection (`> /dev/sda`, `> /proc/sysrq-trigger`). */
export function checkRedirectTarget(target: Field): RuleMatch | undefined {
  if (isBlockDevice(target))
    return { rule: 'block_device_write', reason: `the redirection would write to the device ${target.text}` };
  if (isSysrqPath(target))
    return { rule: 'sysrq_trigger', reason: 'the redirection would write to the kernel SysRq trigger' };
  return undefined;
}

/** Whether any argument names something that a command of unknown name must not touch. */
export function dangerousOperand(args: readonly Field[], context: TargetContext): string | undefined {
  for (const field of args) {
    if (isBlockDevice(field)) return `the device ${field.text}`;
    const target = catastrophicTarget(field, context);
    if (target) return target;
  }
  return undefined;
}
