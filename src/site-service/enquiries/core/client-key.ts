/**
 * Which client a request counts against for rate limiting, from its address (the socket's peer, or
 * what a trusted proxy said: the request adapter decides, ../../service/proxy.ts).
 */
import net from "node:net";

export function clientKey(address: string): string {
  const plain = address.replace(/%.*$/, "").toLowerCase(); // zone index (fe80::1%eth0)
  const mapped = plain.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (mapped) return mapped[1]!;
  // One IPv6 subscriber usually holds a whole /64 and can rotate through it at will.
  return net.isIPv6(plain) ? `${ipv6Groups(plain).slice(0, 4).join(":")}::/64` : plain;
}

/** The eight 16-bit groups of an IPv6 address, "::" expanded (an embedded IPv4 tail counts as two). */
function ipv6Groups(address: string): string[] {
  const [head = "", tail = ""] = address.split("::");
  const split = (part: string) => (part ? part.split(":").flatMap(ipv4AsGroups) : []);
  const left = split(head);
  const right = split(tail);
  const zeros = Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0");
  return [...left, ...(address.includes("::") ? zeros : []), ...right].map((g) => parseInt(g, 16).toString(16));
}

function ipv4AsGroups(group: string): string[] {
  if (!group.includes(".")) return [group];
  const [a = 0, b = 0, c = 0, d = 0] = group.split(".").map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
