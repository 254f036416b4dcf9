// Where RTMP destinations may point, by stage: anywhere in the local stack (its test destination is nginx on
// 127.0.0.1), only the public internet in AWS (security audit L3; lambdas/core/channels/destination-address.ts).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { DestinationPolicy } from '../../core/channels/channels';
import { canonicalHost, DESTINATION_PORTS, destinationPort, isPublicAddress } from '../../core/channels/destination-address';
import { AppError } from '../../core/errors';

export const anyDestination: DestinationPolicy = { check: async () => undefined };

export type Resolve = (host: string) => Promise<string[]>;

const systemResolve: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** The port must be one the stream tasks' security group lets out (1935, 443), and every address the host names
 * must be public; a name that does not resolve is refused too. The stream task checks the addresses again when it
 * connects, since the name may resolve differently by then. */
export function publicDestinationsOnly(resolve: Resolve = systemResolve): DestinationPolicy {
  return {
    async check(rtmpUrl) {
      const url = new URL(rtmpUrl);
      if (!(DESTINATION_PORTS as readonly number[]).includes(destinationPort(url))) {
        throw new AppError('invalid request', { fields: { url: `the port must be ${DESTINATION_PORTS.join(' or ')}` } });
      }
      const canonical = canonicalHost(url.hostname);
      let addresses: string[];
      if (isIP(canonical)) {
        addresses = [canonical];
      } else {
        try {
          addresses = await resolve(canonical);
        } catch {
          throw new AppError('invalid request', { fields: { url: 'the server name does not resolve' } });
        }
      }
      if (!addresses.length || !addresses.every(isPublicAddress)) throw new AppError('destination not allowed');
    },
  };
}
