// A real git smart-HTTP server for tests: git's own http-backend (CGI) behind a
// small node server on loopback. Every request is logged so tests can assert
// which connections were (not) made. `/redirect/...` answers with a redirect to
// a private address, to prove git does not follow it.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { execFileSync } from 'node:child_process';

const BACKEND = process.env.GIT_HTTP_BACKEND ?? execFileSync('git', ['--exec-path']).toString().trim() + '/git-http-backend';

export interface GitServer {
  url: string;
  port: number;
  log: string[];
  stop(): Promise<void>;
}

export async function startGitServer(root: string, port = 0): Promise<GitServer> {
  const log: string[] = [];
  const server: Server = createServer((req, res) => {
    log.push(`${req.method} ${req.url}`);
    const u = new URL(req.url ?? '/', 'http://localhost');
    if (u.pathname.startsWith('/redirect/')) {
      res.writeHead(302, { Location: `http://10.255.255.1${u.pathname.slice('/redirect'.length)}${u.search}` });
      res.end();
      return;
    }
    const child = spawn(BACKEND, [], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        PATH_INFO: decodeURIComponent(u.pathname),
        QUERY_STRING: u.search.replace(/^\?/, ''),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_ADDR: '127.0.0.1',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const i = line.indexOf(':');
        if (i < 0) continue;
        const k = line.slice(0, i).trim();
        const v = line.slice(i + 1).trim();
        if (k.toLowerCase() === 'status') status = Number(v.split(' ')[0]);
        else res.setHeader(k, v);
      }
      res.writeHead(status);
      res.write(head.subarray(end + 4));
    });
    child.on('close', () => res.end());
    child.on('error', () => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const addr = server.address();
  const actual = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    log,
    stop: () => new Promise((r) => server.close(() => r())),
  };
}
