// Whom a throttle counts an attempt against: the client's address as the request carries it, but an IPv6
// client by its /64, the block a single subscriber holds (a limit per IPv6 address would hand an attacker
// 2^64 budgets), and an IPv4-mapped IPv6 address as the IPv4 address it is.
import { isIPv4, isIPv6 } from 'node:net';

const MAPPED_IPV4 = '::ffff:';

export function throttleSource(address: string): string {
  const lower = address.toLowerCase();
  if (lower.startsWith(MAPPED_IPV4) && isIPv4(lower.slice(MAPPED_IPV4.length))) {
    return lower.slice(MAPPED_IPV4.length);
  }
  if (!isIPv6(lower)) return lower;
  const [head = '', tail] = (lower.split('%')[0] ?? lower).split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
