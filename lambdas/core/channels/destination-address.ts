// Where an RTMP destination may point (security audit L3): only the public internet. A user-chosen server on
// loopback, a private network, link-local addresses (the cloud's metadata and credentials endpoints,
// 169.254.169.254 and 169.254.170.2) or any other special range would make the stream task dial into our own
// network. Checked when a destination is saved (the API, every stage but local) and again when the task connects
// (stream-task/src/runtime.ts), against DNS answers that change in between. Pure.
import { BlockList, isIP } from 'node:net';

/** The only ports stream tasks may dial in AWS (their security group's egress, lib/streaming-stack.ts): RTMP and
 * RTMPS (TLS on 443, as YouTube, Facebook and others take it). */
export const DESTINATION_PORTS = [1935, 443] as const;

/** The port an rtmp:// or rtmps:// URL dials. */
export const destinationPort = (url: URL): number => (url.port ? Number(url.port) : url.protocol === 'rtmps:' ? 443 : 1935);

const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network" (0.0.0.0 reaches the host itself)
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local: instance metadata, ECS credentials
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23], // IETF protocol assignments (Teredo and others)
  ['2001:db8::', 32],
  ['2002::', 16], // 6to4: embeds any IPv4 address
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10],
  ['ff00::', 8], // multicast
  ['fd00:ec2::', 32], // EC2's IPv6 metadata endpoint (inside fc00::/7 too)
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 address carries (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible, NAT64 64:ff9b::/96). */
function embeddedIpv4(address: string): string | undefined {
  const groups = expandIpv6(address);
  if (!groups) return undefined;
  const head = groups
    .slice(0, 6)
    .map((group) => group.toString(16))
    .join(':');
  const carries = head === '0:0:0:0:0:ffff' || head === '0:0:0:0:0:0' || head === '64:ff9b:0:0:0:0';
  if (!carries) return undefined;
  const [high, low] = [groups[6]!, groups[7]!];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Eight 16-bit groups of an IPv6 address (dotted IPv4 tail included), or undefined. */
function expandIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const bytes = dotted[1]!.split('.').map(Number);
    text = `${text.slice(0, -dotted[1]!.length)}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const [left, right] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const head = parse(left);
  const tail = parse(right);
  const groups = right === undefined ? head : [...head, ...Array(8 - head.length - tail.length).fill(0), ...tail];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined;
}

/** True only for an IP address on the public internet. Anything that is not an IP address is not public. */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return !nonPublic.check(address, 'ipv4');
  if (version !== 6) return false;
  const ipv4 = embeddedIpv4(address);
  if (ipv4 !== undefined) return isIP(ipv4) === 4 && !nonPublic.check(ipv4, 'ipv4') && !['0.0.0.0', '0.0.0.1'].includes(ipv4);
  return !nonPublic.check(address, 'ipv6');
}

/** A URL host as the network stack reads it: brackets of IPv6 removed, and the numeric IPv4 spellings that
 * inet_aton accepts (2130706433, 0x7f.1, 017700000001) written as the dotted address they mean. */
export function canonicalHost(host: string): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare)) return bare;
  if (/^[0-9a-fx.]+$/i.test(bare)) {
    try {
      // The WHATWG URL parser reads these spellings for http: as inet_aton does.
      const hostname = new URL(`http://${bare}/`).hostname;
      if (isIP(hostname) === 4) return hostname;
    } catch {
      // not an address: a name
    }
  }
  return bare.toLowerCase();
}
