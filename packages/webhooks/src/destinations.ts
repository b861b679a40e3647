/**
 * Which addresses a webhook may be sent to: public unicast only, unless
 * configuration allows the private, loopback and link-local classes (tests allow loopback). The
 * same rule runs on a literal IP at create and update, and on every resolved address at delivery.
 */
import ipaddr from 'ipaddr.js';

/** ipaddr.js's range names that are never a public destination. */
const REFUSED_RANGES = new Set([
  'unspecified',
  'broadcast',
  'multicast',
  'linkLocal',
  'loopback',
  'private',
  'uniqueLocal',
  'carrierGradeNat',
  'reserved',
  'benchmarking',
  'as112',
  'amt',
  'orchid2',
  'deprecated',
  'ipv4Mapped',
  'rfc6145',
  'rfc6052',
  '6to4',
  'teredo',
  'discard',
]);

export interface DestinationPolicy {
  /** Allow the refused classes too (loopback receivers in tests, a private network on purpose). */
  allowPrivate: boolean;
}

/** The range class of an address when it is refused, undefined when it may be sent to. */
export function refusedRange(address: string, policy: DestinationPolicy): string | undefined {
  if (policy.allowPrivate || !ipaddr.isValid(address)) return undefined;
  let parsed = ipaddr.parse(address);
  // An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  return REFUSED_RANGES.has(range) ? range : undefined;
}

/** The host of a URL as an IP address when it is one (brackets of IPv6 removed), else undefined. */
export function literalAddress(url: string): string | undefined {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  return ipaddr.isValid(host) && (host.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(host)) ? host : undefined;
}
