import net from 'node:net';

/** http://127.0.0.1:PORT where nothing listens: for "the service is down" tests (fetch refuses well-known ports like 9). */
export async function closedLoopbackUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
