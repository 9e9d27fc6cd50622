/**
 * What kind of address an IP is, as far as reaching it from an agent is concerned. Only `public`
 * may be reached without an explicit allowance: every other kind is the machine itself, its
 * local networks, a cloud's metadata service, or an address nobody should connect to.
 */
export type NetworkAddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'metadata'
  | 'shared'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'invalid';

interface AddressRange {
  /** The first bits of the address, as a bit string (`'1111111010'` is fe80::/10). */
  readonly bits: string;
  readonly kind: NetworkAddressKind;
}

function range(prefix: number[], width: number, length: number, kind: NetworkAddressKind): AddressRange {
  const bits = prefix.map((part) => part.toString(2).padStart(width, '0')).join('');
  return { bits: bits.slice(0, length), kind };
}

// Exact metadata addresses come first: several lie inside wider ranges (link-local, shared).
const IPV4_RANGES: readonly AddressRange[] = [
  range([169, 254, 169, 254], 8, 32, 'metadata'),
  range([169, 254, 170, 2], 8, 32, 'metadata'),
  range([100, 100, 100, 200], 8, 32, 'metadata'),
  range([192, 0, 0, 192], 8, 32, 'metadata'),
  range([0, 0, 0, 0], 8, 8, 'unspecified'),
  range([10, 0, 0, 0], 8, 8, 'private'),
  range([100, 64, 0, 0], 8, 10, 'shared'),
  range([127, 0, 0, 0], 8, 8, 'loopback'),
  range([169, 254, 0, 0], 8, 16, 'link-local'),
  range([172, 16, 0, 0], 8, 12, 'private'),
  range([192, 0, 0, 0], 8, 24, 'reserved'),
  range([192, 0, 2, 0], 8, 24, 'reserved'),
  range([192, 88, 99, 0], 8, 24, 'reserved'),
  range([192, 168, 0, 0], 8, 16, 'private'),
  range([198, 18, 0, 0], 8, 15, 'reserved'),
  range([198, 51, 100, 0], 8, 24, 'reserved'),
  range([203, 0, 113, 0], 8, 24, 'reserved'),
  range([224, 0, 0, 0], 8, 4, 'multicast'),
  range([240, 0, 0, 0], 8, 4, 'reserved'),
];

const IPV6_RANGES: readonly AddressRange[] = [
  range([0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254], 16, 128, 'metadata'),
  range([0, 0, 0, 0, 0, 0, 0, 0], 16, 128, 'unspecified'),
  range([0, 0, 0, 0, 0, 0, 0, 1], 16, 128, 'loopback'),
  range([0x0100, 0, 0, 0], 16, 64, 'reserved'),
  range([0x0064, 0xff9b, 0x0001], 16, 48, 'private'),
  range([0x2001, 0x0db8], 16, 32, 'reserved'),
  range([0x2001, 0], 16, 23, 'reserved'),
  range([0xfc00], 16, 7, 'unique-local'),
  range([0xfe80], 16, 10, 'link-local'),
  range([0xfec0], 16, 10, 'private'),
  range([0xff00], 16, 8, 'multicast'),
];

function parseIpv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = parts.map((part) => (/^(0|[1-9]\d{0,2})$/.test(part) ? Number(part) : Number.NaN));
  return bytes.every((byte) => byte <= 255) ? bytes : undefined;
}

function parseIpv6(text: string): number[] | undefined {
  if (!/^[0-9a-f:.]+$/i.test(text) || text.split('::').length > 2) return undefined;
  let tail = text;
  const embedded: number[] = [];
  if (text.includes('.')) {
    const lastColon = text.lastIndexOf(':');
    const ipv4 = parseIpv4(text.slice(lastColon + 1));
    if (!ipv4) return undefined;
    embedded.push((ipv4[0]! << 8) | ipv4[1]!, (ipv4[2]! << 8) | ipv4[3]!);
    // Keep a `::` that ends right before the IPv4 part; drop a single separating colon.
    tail = text.endsWith('::', lastColon + 1) ? text.slice(0, lastColon + 1) : text.slice(0, lastColon);
  }
  const [head, rest] = tail.split('::') as [string, string | undefined];
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  if ([...left, ...right].some((group) => !/^[0-9a-f]{1,4}$/i.test(group))) return undefined;
  const present = left.length + right.length + embedded.length;
  if (rest === undefined ? present !== 8 : present > 7) return undefined;
  const zeros: number[] = new Array<number>(8 - present).fill(0);
  return [...left, ...zeros, ...right].map((group) => parseInt(String(group), 16)).concat(embedded);
}

function kindOf(bits: string, ranges: readonly AddressRange[]): NetworkAddressKind {
  return ranges.find((candidate) => bits.startsWith(candidate.bits))?.kind ?? 'public';
}

function bitsOf(parts: readonly number[], width: number): string {
  return parts.map((part) => part.toString(2).padStart(width, '0')).join('');
}

/** The IPv4 address an IPv6 address carries and that a connection to it would reach, if any. */
function embeddedIpv4(groups: readonly number[]): number[] | undefined {
  const bytes = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff];
  const zeroUpTo = (count: number) => groups.slice(0, count).every((group) => group === 0);
  // IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible form (::a.b.c.d).
  if (zeroUpTo(5) && (groups[5] === 0xffff || groups[5] === 0)) return bytes(groups[6]!, groups[7]!);
  // SIIT's IPv4-translated form (::ffff:0:a.b.c.d).
  if (zeroUpTo(4) && groups[4] === 0xffff && groups[5] === 0) return bytes(groups[6]!, groups[7]!);
  // NAT64's well-known prefix 64:ff9b::/96.
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0))
    return bytes(groups[6]!, groups[7]!);
  // 6to4 (2002:a.b.c.d::/48) reaches the IPv4 address in its second and third groups.
  if (groups[0] === 0x2002) return bytes(groups[1]!, groups[2]!);
  return undefined;
}

/**
 * Classifies an IP address given as text (IPv4 dotted quad, or IPv6 with an optional zone and
 * brackets). An IPv6 address that carries an IPv4 address a connection would reach (IPv4-mapped,
 * IPv4-compatible, IPv4-translated, NAT64 `64:ff9b::/96`, 6to4) is classified by that IPv4
 * address, so `::ffff:127.0.0.1` is `loopback`. Text that is not an IP address is `invalid`.
 */
export function classifyNetworkAddress(address: string): NetworkAddressKind {
  const text = address.replace(/^\[(.*)\]$/, '$1');
  const ipv4 = parseIpv4(text);
  if (ipv4) return kindOf(bitsOf(ipv4, 8), IPV4_RANGES);
  // A zone (fe80::1%eth0) names an interface: only link-local addresses carry one.
  const zone = text.indexOf('%');
  const groups = parseIpv6(zone === -1 ? text : text.slice(0, zone));
  if (!groups) return 'invalid';
  const carried = embeddedIpv4(groups);
  const unspecified = groups.every((group) => group === 0);
  const loopback = groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1;
  if (carried && !unspecified && !loopback) return kindOf(bitsOf(carried, 8), IPV4_RANGES);
  return kindOf(bitsOf(groups, 16), IPV6_RANGES);
}

/** Whether `address` is an IP address (IPv4 or IPv6) this classifier can read. */
export function isNetworkAddress(address: string): boolean {
  return classifyNetworkAddress(address) !== 'invalid';
}

/**
 * Whether `address` lies in `cidr` (`127.0.0.0/8`, `::1/128`, or a single address). An IPv4
 * address written as IPv4-mapped IPv6 matches an IPv4 range.
 */
export function addressInRange(address: string, cidr: string): boolean {
  const [base, lengthText] = cidr.split('/') as [string, string | undefined];
  const toBits = (text: string): string | undefined => {
    const plain = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
    const ipv4 = parseIpv4(plain);
    if (ipv4) return bitsOf(ipv4, 8);
    const groups = parseIpv6(plain);
    if (!groups) return undefined;
    const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
    return mapped ? bitsOf(embeddedIpv4(groups)!, 8) : bitsOf(groups, 16);
  };
  const addressBits = toBits(address);
  const baseBits = toBits(base);
  if (addressBits === undefined || baseBits === undefined || addressBits.length !== baseBits.length) return false;
  const length = lengthText === undefined ? baseBits.length : Number(lengthText);
  if (!Number.isInteger(length) || length < 0 || length > baseBits.length) return false;
  return addressBits.slice(0, length) === baseBits.slice(0, length);
}
