import { throttleSource } from './throttle-source.js';

describe('throttleSource', () => {
  it('keeps an IPv4 address, and takes an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(throttleSource('203.0.113.7')).toBe('203.0.113.7');
    expect(throttleSource('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(throttleSource('::FFFF:127.0.0.2')).toBe('127.0.0.2');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const block = '2001:db8:0:1::/64';
    for (const address of [
      '2001:db8:0:1::1',
      '2001:0db8:0000:0001:ffff:ffff:ffff:ffff',
      '2001:DB8:0:1:a::b',
      '2001:db8:0:1::1%eth0',
      '2001:db8:0:1:0:0:192.0.2.1',
    ]) {
      expect(throttleSource(address)).toBe(block);
    }
    expect(throttleSource('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64');
    expect(throttleSource('::1')).toBe('0:0:0:0::/64');
    expect(throttleSource('fe80::1')).toBe('fe80:0:0:0::/64');
    expect(throttleSource('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('leaves what is no address as it is', () => {
    expect(throttleSource('unknown')).toBe('unknown');
  });
});
