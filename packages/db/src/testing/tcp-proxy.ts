// A TCP relay in front of PostgreSQL that a test can cut, as if the server went away, and restore.
import { connect, createServer, type Server, type Socket } from 'node:net';

export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;

  private constructor(
    private readonly target: { readonly host: string; readonly port: number },
    private listenPort: number,
  ) {}

  /** A relay on a free loopback port to `host:port`. */
  static async start(host: string, port: number): Promise<TcpProxy> {
    const proxy = new TcpProxy({ host, port }, 0);
    await proxy.restore();
    return proxy;
  }

  get port(): number {
    return this.listenPort;
  }

  /** Drops every connection and refuses new ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Accepts connections again, on the same port. */
  async restore(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.sockets.add(from);
        from.pipe(to);
        from.on('error', () => to.destroy());
        from.on('close', () => {
          this.sockets.delete(from);
          to.destroy();
        });
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.listenPort, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (typeof address === 'object' && address) this.listenPort = address.port;
    this.server = server;
  }

  close(): Promise<void> {
    return this.cut();
  }
}
