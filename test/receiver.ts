// A webhook receiver for tests: a node:http server on 127.0.0.1, port 0, that keeps every request
// (raw body bytes and headers) and answers as the test says.
import { spawnSync } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  json: any;
}
export interface Answer {
  status: number;
  headers?: Record<string, string>;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** what the next requests get (default 200) */
  answer: (r: Received) => Answer;
  /** resolves once `n` requests have arrived (for processes that deliver on their own time) */
  waitFor(n: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const waiters: { n: number; resolve: () => void }[] = [];
  const r: Receiver = {
    url: '',
    port: 0,
    received: [],
    answer: () => ({ status: 200 }),
    waitFor: (n) =>
      new Promise((resolve) => {
        const check = () => resolve(r.received);
        if (r.received.length >= n) check();
        else waiters.push({ n, resolve: check });
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let json: any;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        json = undefined;
      }
      const got: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json };
      r.received.push(got);
      const a = r.answer(got);
      res.writeHead(a.status, a.headers);
      res.end();
      for (const w of waiters.filter((x) => r.received.length >= x.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}`;
  return r;
}

/** Verifies a signature with python3's hmac module: a second, independent implementation of the scheme. */
export function pythonVerifies(body: Buffer, signature: string, secret: string): boolean {
  const script = [
    'import hashlib, hmac, os, sys',
    'body = sys.stdin.buffer.read()',
    "expected = hmac.new(os.environ['SECRET'].encode(), body, hashlib.sha256).hexdigest()",
    "print('valid' if hmac.compare_digest(expected, os.environ['SIGNATURE']) else 'invalid')",
  ].join('\n');
  const r = spawnSync('python3', ['-c', script], {
    input: body,
    env: { ...process.env, SECRET: secret, SIGNATURE: signature },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return r.stdout.trim() === 'valid';
}
