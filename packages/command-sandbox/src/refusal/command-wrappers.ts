import type { Field } from '../shell/word-fields.js';

/** What a wrapper runs: another command's fields, or shell text to parse again. */
export type WrappedCommand =
  { readonly kind: 'fields'; readonly fields: readonly Field[] } | { readonly kind: 'script'; readonly text: string };

interface WrapperShape {
  /** Options that take the next field as their value. */
  readonly valued: readonly string[];
  /** Operands before the command (timeout's duration, chroot's folder). */
  readonly skipOperands?: number;
  /** Accepts `NAME=value` operands before the command (env). */
  readonly assignments?: boolean;
}

const WRAPPERS: Readonly<Record<string, WrapperShape>> = {
  env: { valued: ['-u', '--unset', '-C', '--chdir'], assignments: true },
  nice: { valued: ['-n', '--adjustment'] },
  ionice: { valued: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata'] },
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], skipOperands: 1 },
  nohup: { valued: [] },
  setsid: { valued: [] },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  time: { valued: ['-f', '--format', '-o', '--output'] },
  command: { valued: [] },
  builtin: { valued: [] },
  exec: { valued: ['-a'] },
  busybox: { valued: [] },
  toybox: { valued: [] },
  chroot: { valued: ['--userspec', '--groups'], skipOperands: 1 },
  flock: { valued: ['-w', '--timeout', '-E', '--conflict-exit-code'], skipOperands: 1 },
  taskset: { valued: [], skipOperands: 1 },
  chrt: { valued: ['-T', '-P', '-D'], skipOperands: 1 },
  unshare: { valued: [] },
  nsenter: { valued: ['-t', '--target', '-S', '-G', '--setuid', '--setgid'] },
  strace: { valued: ['-o', '-e', '-p', '-s', '-u', '-E', '-P', '-O', '-a', '-b', '-I', '-X'] },
  ltrace: { valued: ['-o', '-e', '-p', '-s', '-u', '-n', '-a'] },
  'systemd-run': {
    valued: [
      '-p',
      '--property',
      '-u',
      '--unit',
      '-E',
      '--setenv',
      '--uid',
      '--gid',
      '-M',
      '--machine',
      '--description',
      '--slice',
    ],
  },
  xargs: {
    valued: [
      '-a',
      '-d',
      '-E',
      '-I',
      '-L',
      '-n',
      '-P',
      '-s',
      '--arg-file',
      '--delimiter',
      '--eof',
      '--replace',
      '--max-lines',
      '--max-args',
      '--max-procs',
      '--max-chars',
      '--process-slot-var',
    ],
  },
};

const SHELLS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'mksh',
  'ash',
  'yash',
  'fish',
  'csh',
  'tcsh',
  'posh',
  'rbash',
]);
const SHELL_VALUED = new Set(['-o', '-O', '+o', '+O', '--rcfile', '--init-file']);

function field(text: string): Field {
  return { text, dynamic: false };
}

function scriptText(fields: readonly Field[]): WrappedCommand | undefined {
  // A script only known at run time cannot be read; the sandbox still contains it.
  if (fields.length === 0 || fields.every((item) => item.dynamic && item.text === '')) return undefined;
  return { kind: 'script', text: fields.map((item) => item.text).join(' ') };
}

function shellScript(args: readonly Field[], stdin: string | undefined): WrappedCommand | undefined {
  let command = false;
  for (let index = 0; index < args.length; index += 1) {
    const text = args[index]?.text ?? '';
    if (SHELL_VALUED.has(text)) index += 1;
    else if (text === '--' || text === '-') continue;
    else if (/^-[A-Za-z]+$/.test(text)) command ||= text.includes('c');
    else if (text === '--command') command = true;
    else if (text.startsWith('--') || /^\+[A-Za-z]+$/.test(text)) continue;
    else return command ? scriptText(args.slice(index, index + 1)) : undefined;
  }
  return stdin === undefined || command ? undefined : { kind: 'script', text: stdin };
}

function afterOptions(name: string, shape: WrapperShape, args: readonly Field[]): { rest: Field[]; options: string[] } {
  const options: string[] = [];
  let index = 0;
  while (index < args.length) {
    const text = args[index]?.text ?? '';
    if (text === '--') {
      index += 1;
      break;
    }
    if (shape.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) {
      index += 1;
      continue;
    }
    if (!text.startsWith('-') || text === '-') break;
    options.push(text);
    index += shape.valued.includes(text) ? 2 : 1;
    if (name === 'env' && (text === '-S' || text === '--split-string')) break;
  }
  return { rest: args.slice(index), options };
}

function findExecCommands(args: readonly Field[]): WrappedCommand[] {
  const starts: Field[] = [];
  for (const item of args) {
    if (item.text.startsWith('-') || item.text === '(' || item.text === '!') break;
    starts.push(item);
  }
  const commands: WrappedCommand[] = [];
  for (let index = 0; index < args.length; index += 1) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[index]?.text ?? '')) continue;
    const body: Field[] = [];
    for (index += 1; index < args.length && ![';', '+'].includes(args[index]?.text ?? ''); index += 1)
      body.push(args[index] as Field);
    for (const start of starts.length > 0 ? starts : [field('.')]) {
      commands.push({ kind: 'fields', fields: body.map((item) => (item.text === '{}' ? start : item)) });
    }
  }
  return commands;
}

function xargsCommand(args: readonly Field[], stdin: string | undefined): WrappedCommand[] {
  const { rest, options } = afterOptions('xargs', WRAPPERS.xargs as WrapperShape, args);
  const replaceIndex = args.findIndex((item) => item.text === '-I');
  const replace =
    replaceIndex >= 0
      ? args[replaceIndex + 1]?.text
      : options.find((text) => text.startsWith('-I'))?.slice(2) || undefined;
  const tokens = (stdin ?? '').split(/\s+/).filter(Boolean).map(field);
  const command = rest.length > 0 ? rest : [field('echo')];
  if (replace)
    return tokens.map((token) => ({
      kind: 'fields',
      fields: command.map((item) =>
        item.text.includes(replace) ? field(item.text.split(replace).join(token.text)) : item,
      ),
    }));
  return [{ kind: 'fields', fields: [...command, ...tokens] }];
}

/**
 * The commands a wrapper runs: `env FOO=1 rm` runs `rm`, `bash -c 'text'` runs `text`,
 * `find / -exec rm -rf {} ;` runs `rm -rf /`, `echo / | xargs rm -rf` runs `rm -rf /`.
 * `stdin` is the text piped or here-documented into the command, when it is known.
 */
export function wrappedCommands(name: string, args: readonly Field[], stdin: string | undefined): WrappedCommand[] {
  if (SHELLS.has(name)) {
    const script = shellScript(args, stdin);
    return script ? [script] : [];
  }
  if (name === 'eval') {
    const script = scriptText(args);
    return script ? [script] : [];
  }
  if (name === 'watch') {
    const { rest } = afterOptions(name, { valued: ['-n', '--interval', '-q'] }, args);
    const script = scriptText(rest);
    return script ? [script] : [];
  }
  if (name === 'script' || name === 'flock' || name === 'su' || name === 'runuser') {
    const index = args.findIndex((item) => item.text === '-c' || item.text === '--command');
    const script = index >= 0 ? scriptText(args.slice(index + 1, index + 2)) : undefined;
    if (script) return [script];
  }
  if (name === 'find') return findExecCommands(args);
  if (name === 'xargs') return xargsCommand(args, stdin);
  const shape = WRAPPERS[name];
  if (!shape) return [];
  const { rest, options } = afterOptions(name, shape, args);
  if (name === 'command' && options.some((text) => /^-[A-Za-z]*[vV]/.test(text))) return [];
  if (name === 'env') {
    const splitIndex = args.findIndex((item) => item.text === '-S' || item.text === '--split-string');
    const attached = args.find((item) => /^(-S|--split-string=)./.test(item.text));
    if (splitIndex >= 0)
      return scriptText(args.slice(splitIndex + 1)) ? [scriptText(args.slice(splitIndex + 1)) as WrappedCommand] : [];
    if (attached)
      return [
        {
          kind: 'script',
          text: [attached.text.replace(/^(-S|--split-string=)/, ''), ...rest.map((item) => item.text)].join(' '),
        },
      ];
  }
  const command = rest.slice(shape.skipOperands ?? 0);
  return command.length > 0 ? [{ kind: 'fields', fields: command }] : [];
}
