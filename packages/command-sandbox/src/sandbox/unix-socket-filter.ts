/**
 * A seccomp filter (classic BPF, the program bubblewrap's `--seccomp FD` loads) that keeps a
 * sandboxed command away from every Unix socket it did not make itself: `socket(AF_UNIX, …)`
 * fails with EPERM, so no named socket of the host (`/opt/…/s.sock`, a database, an agent) can be
 * connected to. `socketpair(AF_UNIX, SOCK_STREAM | SOCK_SEQPACKET)` stays allowed: such a pair is
 * born connected and the kernel refuses to connect it or send through it anywhere else (EISCONN),
 * and every pipe between Node, Python or libuv processes is one. A datagram pair is refused,
 * because a datagram socket can `sendto` any named socket. Everything else is allowed.
 *
 * Only x86_64 and aarch64 are understood; a syscall of any other ABI (i386 and its legacy
 * `socketcall` through `int 0x80`, x32, 32-bit arm) kills the process, so no multiplexer or
 * second numbering can side-step the checks.
 */

/** The machine architectures the filter is written for, by Node's `process.arch` names. */
export type UnixSocketFilterArchitecture = 'x64' | 'arm64';

/** One classic BPF instruction as the kernel reads it (`struct sock_filter`, 8 bytes). */
export interface FilterInstruction {
  readonly code: number;
  readonly jumpIfTrue: number;
  readonly jumpIfFalse: number;
  readonly constant: number;
}

// Classic BPF opcodes (linux/filter.h) and seccomp return values (linux/seccomp.h).
const LOAD_WORD_ABSOLUTE = 0x20;
const JUMP_IF_EQUAL = 0x15;
const JUMP_IF_GREATER_OR_EQUAL = 0x35;
const AND_CONSTANT = 0x54;
const RETURN_CONSTANT = 0x06;
const RETURN_KILL_PROCESS = 0x80000000;
const RETURN_ALLOW = 0x7fff0000;
const RETURN_ERRNO = 0x00050000;
const EPERM = 1;

// struct seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8 * i. Both architectures are little
// endian, so an argument's low 32 bits (all the kernel reads of an int) come first.
const SYSCALL_NUMBER = 0;
const ARCHITECTURE = 4;
const FIRST_ARGUMENT = 16;
const SECOND_ARGUMENT = 24;

const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const X32_SYSCALL_BIT = 0x40000000;
const AF_UNIX = 1;
const SOCK_TYPE_MASK = 0xf;
const SOCK_STREAM = 1;
const SOCK_SEQPACKET = 5;

const SYSCALLS = {
  x64: { socket: 41, socketpair: 53 },
  arm64: { socket: 198, socketpair: 199 },
} as const;

type Step =
  | { readonly label: string }
  | { readonly code: number; readonly constant: number; readonly whenTrue?: string; readonly whenFalse?: string };

const load = (offset: number): Step => ({ code: LOAD_WORD_ABSOLUTE, constant: offset });
const give = (value: number): Step => ({ code: RETURN_CONSTANT, constant: value });
const jumpIfEqual = (value: number, whenTrue?: string, whenFalse?: string): Step => ({
  code: JUMP_IF_EQUAL,
  constant: value,
  ...(whenTrue ? { whenTrue } : {}),
  ...(whenFalse ? { whenFalse } : {}),
});

/** Resolves labels into the forward, relative jump offsets classic BPF uses. */
function assemble(steps: readonly Step[]): FilterInstruction[] {
  const labels = new Map<string, number>();
  const instructions: Exclude<Step, { label: string }>[] = [];
  for (const step of steps) {
    if ('label' in step) labels.set(step.label, instructions.length);
    else instructions.push(step);
  }
  const offset = (from: number, label: string | undefined): number => {
    if (label === undefined) return 0;
    const target = labels.get(label);
    if (target === undefined) throw new Error(`unknown label ${label}`);
    const distance = target - from - 1;
    if (distance < 0 || distance > 255) throw new Error(`jump to ${label} out of range`);
    return distance;
  };
  return instructions.map((step, index) => ({
    code: step.code,
    jumpIfTrue: offset(index, step.whenTrue),
    jumpIfFalse: offset(index, step.whenFalse),
    constant: step.constant >>> 0,
  }));
}

/** The filter as instructions (for tests and reading); {@link unixSocketFilterProgram} gives the bytes. */
export function unixSocketFilterInstructions(): FilterInstruction[] {
  return assemble([
    load(ARCHITECTURE),
    jumpIfEqual(AUDIT_ARCH_X86_64, 'x64'),
    jumpIfEqual(AUDIT_ARCH_AARCH64, 'arm64'),
    give(RETURN_KILL_PROCESS),
    { label: 'x64' },
    load(SYSCALL_NUMBER),
    { code: JUMP_IF_GREATER_OR_EQUAL, constant: X32_SYSCALL_BIT, whenTrue: 'kill' },
    jumpIfEqual(SYSCALLS.x64.socket, 'socket'),
    jumpIfEqual(SYSCALLS.x64.socketpair, 'socketpair'),
    give(RETURN_ALLOW),
    { label: 'arm64' },
    load(SYSCALL_NUMBER),
    jumpIfEqual(SYSCALLS.arm64.socket, 'socket'),
    jumpIfEqual(SYSCALLS.arm64.socketpair, 'socketpair'),
    give(RETURN_ALLOW),
    { label: 'socket' },
    load(FIRST_ARGUMENT),
    jumpIfEqual(AF_UNIX, 'deny'),
    give(RETURN_ALLOW),
    { label: 'socketpair' },
    load(FIRST_ARGUMENT),
    jumpIfEqual(AF_UNIX, undefined, 'allow'),
    load(SECOND_ARGUMENT),
    { code: AND_CONSTANT, constant: SOCK_TYPE_MASK },
    jumpIfEqual(SOCK_STREAM, 'allow'),
    jumpIfEqual(SOCK_SEQPACKET, 'allow'),
    { label: 'deny' },
    give(RETURN_ERRNO | EPERM),
    { label: 'allow' },
    give(RETURN_ALLOW),
    { label: 'kill' },
    give(RETURN_KILL_PROCESS),
  ]);
}

/**
 * The compiled filter as bubblewrap reads it from `--seccomp FD`: `struct sock_filter` entries,
 * little endian. Throws for a machine whose architecture the filter does not know (its commands
 * would all be killed): the caller refuses to sandbox there rather than run without the wall.
 */
export function unixSocketFilterProgram(architecture: string = process.arch): Buffer {
  if (!isUnixSocketFilterArchitecture(architecture))
    throw new Error(`the Unix socket filter is written for x64 and arm64, not ${architecture}`);
  const instructions = unixSocketFilterInstructions();
  const program = Buffer.alloc(instructions.length * 8);
  instructions.forEach((instruction, index) => {
    program.writeUInt16LE(instruction.code, index * 8);
    program.writeUInt8(instruction.jumpIfTrue, index * 8 + 2);
    program.writeUInt8(instruction.jumpIfFalse, index * 8 + 3);
    program.writeUInt32LE(instruction.constant, index * 8 + 4);
  });
  return program;
}

/** Whether {@link unixSocketFilterProgram} can be built for `architecture` (`process.arch` names). */
export function isUnixSocketFilterArchitecture(architecture: string): architecture is UnixSocketFilterArchitecture {
  return architecture === 'x64' || architecture === 'arm64';
}
