// A TCP proxy a test can cut and restore: the way to take PostgreSQL away from
// some services without stopping the machine's server (other tests use it).
// `cut()` stops accepting (a connect is refused) and destroys every open
// connection (a query in flight fails, pooled connections die); `restore()`
// listens again on the same port.
import { createServer, connect, type Server, type Socket } from 'node:net';

export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  /** Connections accepted since the proxy was made. */
  accepted = 0;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  /** Listen on `port` (a free one when 0); resolves with the port. */
  async start(port = 0): Promise<number> {
    const server = createServer((client) => this.pipe(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const addr = server.address();
    this.port = typeof addr === 'object' && addr ? addr.port : 0;
    this.server = server;
    return this.port;
  }

  get isUp(): boolean {
    return this.server !== null;
  }

  private pipe(client: Socket): void {
    this.accepted++;
    const upstream = connect(this.target.port, this.target.host);
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.setNoDelay(true);
      s.on('close', () => this.sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }

  /** Take the database away: refuse new connections, drop every open one. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await closed;
  }

  /** Bring it back on the same port. */
  async restore(): Promise<void> {
    if (this.server) return;
    await this.start(this.port);
  }

  async stop(): Promise<void> {
    await this.cut();
  }
}

/** `url` with its host and port replaced by the proxy's. */
export const viaProxy = (url: string, proxy: TcpProxy): string => {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString();
};
