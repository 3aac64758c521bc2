import { isAddressAllowed, networkList, normaliseAddress } from '../src/addresses.js';

describe('isAddressAllowed', () => {
  it.each([
    '127.0.0.1',
    '127.5.6.7',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '0.0.0.0',
    '192.0.2.10',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:a9fe:a9fe',
    '::ffff:10.0.0.1',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '64:ff9b::a00:1',
    '2002:a00:1::1',
    '2001:db8::1',
    '[::1]',
  ])('refuses %s', (address) => {
    expect(isAddressAllowed(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'accepts the public address %s',
    (address) => {
      expect(isAddressAllowed(address)).toBe(true);
    },
  );

  it('refuses what is not an address', () => {
    expect(isAddressAllowed('localhost')).toBe(false);
    expect(isAddressAllowed('')).toBe(false);
  });

  it('accepts configured exceptions, and only those', () => {
    const allowed = networkList(['127.0.0.0/8', '::1/128']);
    expect(isAddressAllowed('127.0.0.1', allowed)).toBe(true);
    expect(isAddressAllowed('::1', allowed)).toBe(true);
    expect(isAddressAllowed('::ffff:127.0.0.1', allowed)).toBe(true);
    expect(isAddressAllowed('10.0.0.1', allowed)).toBe(false);
    expect(isAddressAllowed('169.254.169.254', allowed)).toBe(false);
  });
});

describe('networkList', () => {
  it.each(['10.0.0.0/33', 'nope', '10.0.0.0/8/1', '::1/129', '10.0.0.0/x'])('refuses %s', (network) => {
    expect(() => networkList([network])).toThrow(/is not an IP network/);
  });

  it('takes a single address as a /32 or /128', () => {
    const list = networkList(['192.168.1.5', '::1']);
    expect(list.check('192.168.1.5', 'ipv4')).toBe(true);
    expect(list.check('192.168.1.6', 'ipv4')).toBe(false);
    expect(list.check('::1', 'ipv6')).toBe(true);
  });
});

describe('normaliseAddress', () => {
  it('judges an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(normaliseAddress('::ffff:169.254.169.254')).toEqual({ address: '169.254.169.254', family: 4 });
    expect(normaliseAddress('0:0:0:0:0:ffff:7f00:1')).toEqual({ address: '127.0.0.1', family: 4 });
    expect(normaliseAddress('2001:0db8:0000::0001')).toEqual({ address: '2001:db8::1', family: 6 });
  });
});
