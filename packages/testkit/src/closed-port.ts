import { freeLoopbackPort } from './reserved-port.ts';

/** http://127.0.0.1:PORT where nothing listens: for "the service is down" tests (fetch refuses well-known ports like 9). */
export async function closedLoopbackUrl(): Promise<string> {
  return `http://127.0.0.1:${await freeLoopbackPort()}`;
}
