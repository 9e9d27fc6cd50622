import { describe, expect, it } from 'vitest';
import { unixSocketFilterProgram } from './unix-socket-filter.js';

const X86_64 = 0xc000003e;
const AARCH64 = 0xc00000b7;
const I386 = 0x40000003;
const ARM = 0x40000028;
const ALLOW = 'allow';
const EPERM = 'EPERM';
const KILL = 'kill';

/**
 * Runs the compiled bytes the way the kernel does (the classic BPF subset the filter may use) on
 * one `struct seccomp_data`, so the test reads what bubblewrap loads, not the assembler's input.
 */
function verdict(program: Buffer, arch: number, nr: number, args: readonly bigint[] = []): string {
  const data = Buffer.alloc(64);
  data.writeInt32LE(nr, 0);
  data.writeUInt32LE(arch, 4);
  args.forEach((value, index) => data.writeBigUInt64LE(BigInt.asUintN(64, value), 16 + 8 * index));
  let accumulator = 0;
  for (let pc = 0; pc * 8 < program.length; pc += 1) {
    const code = program.readUInt16LE(pc * 8);
    const jumpIfTrue = program.readUInt8(pc * 8 + 2);
    const jumpIfFalse = program.readUInt8(pc * 8 + 3);
    const constant = program.readUInt32LE(pc * 8 + 4);
    switch (code) {
      case 0x20:
        accumulator = data.readUInt32LE(constant);
        break;
      case 0x54:
        accumulator = (accumulator & constant) >>> 0;
        break;
      case 0x15:
        pc += accumulator === constant ? jumpIfTrue : jumpIfFalse;
        break;
      case 0x35:
        pc += accumulator >= constant ? jumpIfTrue : jumpIfFalse;
        break;
      case 0x06:
        if (constant === 0x7fff0000) return ALLOW;
        if (constant === 0x80000000) return KILL;
        if (constant === 0x00050001) return EPERM;
        return `return ${constant.toString(16)}`;
      default:
        throw new Error(`unexpected opcode ${code.toString(16)} at ${pc}`);
    }
  }
  throw new Error('the program fell off its end (the kernel rejects such a filter)');
}

const AF_UNIX = 1n;
const AF_INET = 2n;
const SOCK_STREAM = 1n;
const SOCK_DGRAM = 2n;
const SOCK_SEQPACKET = 5n;
const SOCK_CLOEXEC_NONBLOCK = 0o2000000n | 0o4000n;

describe('unixSocketFilterProgram', () => {
  const program = unixSocketFilterProgram('x64');

  it('is whole sock_filter entries, the same bytes for both architectures', () => {
    expect(program.length % 8).toBe(0);
    expect(program.length / 8).toBeLessThan(64);
    expect(unixSocketFilterProgram('arm64').equals(program)).toBe(true);
  });

  it.each([
    ['x86_64 socket(AF_UNIX)', X86_64, 41, [AF_UNIX, SOCK_STREAM], EPERM],
    ['x86_64 socket(AF_UNIX) with flags', X86_64, 41, [AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC_NONBLOCK], EPERM],
    [
      'x86_64 socket(AF_UNIX) with high bits the kernel ignores',
      X86_64,
      41,
      [(1n << 40n) | AF_UNIX, SOCK_STREAM],
      EPERM,
    ],
    ['x86_64 socket(AF_INET)', X86_64, 41, [AF_INET, SOCK_STREAM], ALLOW],
    ['x86_64 socketpair(AF_UNIX, STREAM|CLOEXEC)', X86_64, 53, [AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC_NONBLOCK], ALLOW],
    ['x86_64 socketpair(AF_UNIX, SEQPACKET)', X86_64, 53, [AF_UNIX, SOCK_SEQPACKET], ALLOW],
    ['x86_64 socketpair(AF_UNIX, DGRAM)', X86_64, 53, [AF_UNIX, SOCK_DGRAM], EPERM],
    ['x86_64 socketpair(AF_UNIX, DGRAM|NONBLOCK)', X86_64, 53, [AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC_NONBLOCK], EPERM],
    ['x86_64 connect', X86_64, 42, [3n], ALLOW],
    ['x86_64 read', X86_64, 0, [], ALLOW],
    ['x32 socket', X86_64, 0x40000000 + 41, [AF_UNIX, SOCK_STREAM], KILL],
    ['x32 anything', X86_64, 0x40000000, [], KILL],
    ['aarch64 socket(AF_UNIX)', AARCH64, 198, [AF_UNIX, SOCK_STREAM], EPERM],
    ['aarch64 socket(AF_INET6)', AARCH64, 198, [10n, SOCK_STREAM], ALLOW],
    ['aarch64 socketpair(AF_UNIX, STREAM)', AARCH64, 199, [AF_UNIX, SOCK_STREAM], ALLOW],
    ['aarch64 socketpair(AF_UNIX, DGRAM)', AARCH64, 199, [AF_UNIX, SOCK_DGRAM], EPERM],
    ['aarch64 number 41 is not socket there', AARCH64, 41, [AF_UNIX, SOCK_STREAM], ALLOW],
    ['i386 socketcall (the legacy multiplexer)', I386, 102, [1n], KILL],
    ['i386 anything', I386, 3, [], KILL],
    ['32-bit arm', ARM, 281, [AF_UNIX, SOCK_STREAM], KILL],
  ] as const)('%s', (_name, arch, nr, args, expected) => {
    expect(verdict(program, arch, nr, args)).toBe(expected);
  });

  it('refuses to build for an architecture it does not know', () => {
    expect(() => unixSocketFilterProgram('ia32')).toThrow(/x64 and arm64, not ia32/);
    expect(() => unixSocketFilterProgram('s390x')).toThrow(/not s390x/);
  });
});
