import net, { type AddressInfo } from 'node:net';

export interface ReservedPort {
  port: number;
  /** http://127.0.0.1:PORT */
  url: string;
  /** Frees the port: call it right before the server that needs it listens. */
  release(): Promise<void>;
}

/**
 * A loopback port held open until `release()`, for a server whose own address must be in its
 * configuration before it starts (PUBLIC_URL). A port only looked up and closed at once can be handed
 * to any fake server started during the set-up, here or in a suite beside this one (EADDRINUSE).
 */
export async function reserveLoopbackPort(): Promise<ReservedPort> {
  const holder = net.createServer();
  await new Promise<void>((resolve, reject) => holder.once('error', reject).listen(0, '127.0.0.1', resolve));
  holder.unref();
  const { port } = holder.address() as AddressInfo;
  let released: Promise<void> | undefined;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    release: () => (released ??= new Promise<void>((resolve) => holder.close(() => resolve()))),
  };
}

/**
 * A loopback port free a moment ago, for a server in another process that binds it itself (a
 * bench's child, a server whose options need the number): it cannot be held for it, so prefer
 * reserveLoopbackPort wherever the server starts in this process.
 */
export async function freeLoopbackPort(): Promise<number> {
  const reserved = await reserveLoopbackPort();
  await reserved.release();
  return reserved.port;
}
