import { describe, expect, it } from 'vitest';
import { addressInRange, classifyNetworkAddress } from './network-address.js';
import { checkHostAddresses, matchesDomainPattern } from './network-policy.js';

// Values only: nothing here opens a connection.
describe('classifyNetworkAddress', () => {
  it.each([
    ['93.184.216.34', 'public'],
    ['8.8.8.8', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.0.0.2', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fd00::1', 'unique-local'],
    ['fc12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2606:4700::1111', 'public'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::ffff:169.254.169.254]', 'metadata'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:0808:0808::1', 'public'],
    ['localhost', 'invalid'],
    ['127.1', 'invalid'],
    ['0x7f.0.0.1', 'invalid'],
    ['1::2::3', 'invalid'],
  ])('%s is %s', (address, kind) => {
    expect(classifyNetworkAddress(address)).toBe(kind);
  });
});

describe('addressInRange', () => {
  it('matches CIDR ranges and single addresses of either family', () => {
    expect(addressInRange('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(addressInRange('127.0.0.2', '127.0.0.1')).toBe(false);
    expect(addressInRange('10.1.2.3', '10.0.0.0/8')).toBe(true);
    expect(addressInRange('::ffff:10.1.2.3', '10.0.0.0/8')).toBe(true);
    expect(addressInRange('fd00::5', 'fd00::/8')).toBe(true);
    expect(addressInRange('10.1.2.3', 'fd00::/8')).toBe(false);
    expect(addressInRange('10.1.2.3', '10.0.0.0/40')).toBe(false);
  });
});

describe('checkHostAddresses', () => {
  it('refuses a host when any of its addresses is not public, and says which', () => {
    const verdict = checkHostAddresses('example.test', ['93.184.216.34', '10.0.0.1']);
    expect(verdict).toMatchObject({ allowed: false, address: '10.0.0.1', kind: 'private' });
    expect(verdict.allowed ? '' : verdict.reason).toContain('example.test resolves to it');
  });

  it('allows public addresses and returns the first as the one to connect to', () => {
    expect(checkHostAddresses('example.test', ['93.184.216.34', '2606:4700::1111'])).toEqual({
      allowed: true,
      address: '93.184.216.34',
    });
  });

  it('allows a private address only by an explicit allowance of that address or that host', () => {
    expect(checkHostAddresses('localhost', ['127.0.0.1']).allowed).toBe(false);
    expect(checkHostAddresses('localhost', ['127.0.0.1'], { privateAddresses: ['127.0.0.1'] }).allowed).toBe(true);
    expect(checkHostAddresses('localhost', ['127.0.0.2'], { privateAddresses: ['127.0.0.1'] }).allowed).toBe(false);
    expect(checkHostAddresses('LOCALHOST.', ['127.0.0.1'], { privateHosts: ['localhost'] }).allowed).toBe(true);
    expect(checkHostAddresses('nothing.test', []).allowed).toBe(false);
  });
});

describe('matchesDomainPattern', () => {
  it('matches exact hosts, subdomain wildcards and everything', () => {
    expect(matchesDomainPattern('Docs.Example.com.', 'docs.example.com')).toBe(true);
    expect(matchesDomainPattern('a.docs.example.com', 'docs.example.com')).toBe(false);
    expect(matchesDomainPattern('a.example.com', '*.example.com')).toBe(true);
    expect(matchesDomainPattern('example.com', '*.example.com')).toBe(false);
    expect(matchesDomainPattern('badexample.com', '*.example.com')).toBe(false);
    expect(matchesDomainPattern('anything.test', '*')).toBe(true);
    expect(matchesDomainPattern('[::1]', '::1')).toBe(true);
  });
});
