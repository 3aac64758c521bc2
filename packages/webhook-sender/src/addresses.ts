// Which IP addresses a webhook may be sent to (docs/decisions.md, "Webhooks: where they may go"): public
// unicast only, unless the configuration names networks to allow (loopback for local development, say).
import { BlockList, isIP } from 'node:net';

/**
 * Special-purpose ranges (IANA IPv4 and IPv6 special-purpose registries) a request must never reach:
 * loopback, private, shared, link-local (with the cloud metadata address 169.254.169.254), documentation,
 * benchmarking, multicast, reserved. Transition prefixes that embed an IPv4 address (NAT64, 6to4,
 * Teredo) are refused whole: they could smuggle a private one.
 */
export const BLOCKED_NETWORKS: readonly string[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/96',
  '64:ff9b::/96',
  '64:ff9b:1::/48',
  '100::/64',
  '2001::/23',
  '2001:db8::/32',
  '2002::/16',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
];

export class NetworkListError extends Error {
  override readonly name = 'NetworkListError';
}

/** A set of networks written as CIDR (`10.0.0.0/8`, `::1/128`) or single addresses. */
export function networkList(networks: readonly string[]): BlockList {
  const list = new BlockList();
  for (const network of networks) {
    const [address = '', bits, ...rest] = network.trim().split('/');
    const family = isIP(address);
    const prefix = bits === undefined ? (family === 6 ? 128 : 32) : Number(bits);
    const max = family === 6 ? 128 : 32;
    if (family === 0 || rest.length > 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > max) {
      throw new NetworkListError(`"${network}" is not an IP network (write it like 127.0.0.0/8 or ::1/128)`);
    }
    list.addSubnet(address, prefix, family === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

const BLOCKED = networkList(BLOCKED_NETWORKS);

/** The address to judge: an IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as its IPv4 address. */
export function normaliseAddress(address: string): { address: string; family: 4 | 6 } | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 4) return { address: bare, family: 4 };
  if (family !== 6) return undefined;
  // The URL parser writes an IPv6 address in its one canonical form, mapped ones as ::ffff:7f00:1.
  const canonical = new URL(`http://[${bare}]`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (mapped) {
    const high = parseInt(mapped[1] ?? '0', 16);
    const low = parseInt(mapped[2] ?? '0', 16);
    return { address: [high >> 8, high & 255, low >> 8, low & 255].join('.'), family: 4 };
  }
  return { address: canonical, family: 6 };
}

/**
 * Whether a request may go to `address`: allowed when it is in `allowed` (the configured exceptions),
 * else when it is in no blocked range. Anything that is not an IP address is refused.
 */
export function isAddressAllowed(address: string, allowed?: BlockList): boolean {
  const normal = normaliseAddress(address);
  if (!normal) return false;
  const type = normal.family === 6 ? 'ipv6' : 'ipv4';
  if (allowed?.check(normal.address, type)) return true;
  return !BLOCKED.check(normal.address, type);
}
