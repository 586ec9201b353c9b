import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import { classifyAddress, defaultDialer, type DialTarget, type Dialer, type ResolvedAddress, type Resolver } from '../../src/index.ts';

/**
 * A stand-in for the public internet. `resolver` answers from a table (or a function, to script
 * rebinding); `dialer` carries connections for registered PUBLIC addresses to loopback servers,
 * fails unregistered public ones (a test never reaches the real internet), and hands every
 * other address to the real `defaultDialer` — so if the guard ever let a
 * private address through, the connection would really happen and the canary would see it.
 */
export interface FakeInternet {
  resolver: Resolver;
  dialer: Dialer;
  /** Every dial, in order: which checked addresses the fetcher was allowed to use. */
  dials: DialTarget[];
  /** Every DNS question, in order. */
  lookups: string[];
  /** `name` resolves to `answers` (a function is called once per lookup). */
  dns(name: string, answers: string[] | ((call: number) => string[])): void;
  /** Traffic to `address` reaches the loopback server on `port` (with TLS when `tlsOptions`). */
  route(address: string, port: number, tlsOptions?: tls.ConnectionOptions): void;
}

export function createFakeInternet(): FakeInternet {
  const zone = new Map<string, (call: number) => string[]>();
  const calls = new Map<string, number>();
  const routes = new Map<string, { port: number; tlsOptions?: tls.ConnectionOptions }>();
  const dials: DialTarget[] = [];
  const lookups: string[] = [];

  const resolver: Resolver = async (hostname) => {
    lookups.push(hostname);
    const answer = zone.get(hostname);
    if (!answer) {
      const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      error.code = 'ENOTFOUND';
      throw error;
    }
    const call = (calls.get(hostname) ?? 0) + 1;
    calls.set(hostname, call);
    return answer(call).map((address): ResolvedAddress => ({ address, family: net.isIP(address) === 6 ? 6 : 4 }));
  };

  const dialer: Dialer = (target): Duplex => {
    dials.push(target);
    const routed = target.addresses.map((a) => routes.get(a.address)).find((r) => r !== undefined);
    if (!routed) {
      // Never the real internet from a test: an unrouted public address is unreachable.
      if (target.addresses.some((a) => classifyAddress(a.address).public)) return unreachable();
      return defaultDialer(target);
    }
    if (!target.tls) return net.connect(routed.port, '127.0.0.1');
    return tls.connect({ host: '127.0.0.1', port: routed.port, servername: target.hostname, ...routed.tlsOptions });
  };

  return {
    resolver,
    dialer,
    dials,
    lookups,
    dns: (name, answers) => zone.set(name, typeof answers === 'function' ? answers : () => answers),
    route: (address, port, tlsOptions) => routes.set(address, { port, tlsOptions }),
  };
}

function unreachable(): Duplex {
  const socket = new net.Socket();
  const error: NodeJS.ErrnoException = new Error('fake internet: no route to host');
  error.code = 'EHOSTUNREACH';
  process.nextTick(() => socket.destroy(error));
  return socket;
}

/** Public addresses (example.com's, at the time of writing) that no test ever really reaches. */
export const PUBLIC_V4 = '93.184.215.14';
export const PUBLIC_V4_B = '93.184.215.15';
export const PUBLIC_V6 = '2606:2800:21f:cb07:6820:80da:af6b:8b2c';
