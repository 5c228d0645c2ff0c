// A key you can use (issue 24, point 5): `vmv sim serve` on a terminal prints the line to paste in
// another shell (the key whole); piped or logged, the banner keeps it masked; --print-env prints
// only that line, for eval, and exits.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bufferIO } from '../src/io.js';
import { requestStop } from '../src/io.js';
import { main } from '../src/main.js';
import { BIN, cli, tempDir } from './helpers.js';

const EXPORT = /^ {2}export VMV_BASE_URL=(http:\/\/127\.0\.0\.1:\d+) VMV_API_KEY=(sk_sim_\w+)$/m;

describe('vmv sim serve and the key', () => {
  it('on a terminal, prints the export line with the key whole; the line works', async () => {
    const data = join(tempDir(), 'sim.json');
    const io = await bufferIO({ tty: true });
    const running = main(['sim', 'serve', '--port', '0', '--quiet', '--data', data], io, { NO_COLOR: '1' });
    for (let i = 0; i < 200 && !EXPORT.test(io.stderr()); i++) await new Promise((r) => setTimeout(r, 25));
    const [, url, key] = EXPORT.exec(io.stderr())!;
    expect(io.stderr()).toContain(`  key    ${key} (full-access)\n`);
    // the pasted line points vmv at the server
    const r = await cli(['status', '--json'], {
      env: { VMV_BASE_URL: url, VMV_API_KEY: key, VMV_CONFIG_DIR: tempDir() },
    });
    expect(r.json).toMatchObject({ simulator: true, api_key: { from: 'VMV_API_KEY' } });
    requestStop();
    expect(await running).toBe(0);
  });

  it('piped, the banner keeps the key masked and says how to print it', async () => {
    const dir = tempDir();
    const proc = spawn(process.execPath, [BIN, 'sim', 'serve', '--port', '4789', '--data', join(dir, 's.json')], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    proc.stderr!.on('data', (d) => (err += d));
    for (let i = 0; i < 400 && !err.includes('Stop with'); i++) await new Promise((r) => setTimeout(r, 25));
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    expect(err).toMatch(
      / {2}key {4}sk_sim_…\w{4} \(full-access; printed whole on a terminal, by --json, or by --print-env\)/,
    );
    expect(err).toContain(
      `  Point vmv at it: eval "$(vmv sim serve --print-env --port 4789 --data ${join(dir, 's.json')})"`,
    );
    expect(err).not.toMatch(/sk_sim_\w{40}/);
  });

  it('--print-env prints only the line, for eval, and exits; the same key the server then uses', async () => {
    const data = join(tempDir(), 'sim.json');
    const r = await cli(['sim', 'serve', '--print-env', '--port', '4790', '--data', data]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^export VMV_BASE_URL=http:\/\/127\.0\.0\.1:4790 VMV_API_KEY=sk_sim_\w+\n$/);
    const io = await bufferIO();
    const running = main(['sim', 'serve', '--port', '0', '--json', '--quiet', '--data', data], io, {});
    for (let i = 0; i < 200 && !io.stdout().includes('\n'); i++) await new Promise((res) => setTimeout(res, 25));
    expect(JSON.parse(io.stdout()).api_key).toBe(/VMV_API_KEY=(\S+)/.exec(r.stdout)![1]);
    requestStop();
    await running;
    // a wildcard bind is reached on loopback; a port picked when listening cannot be printed before
    expect((await cli(['sim', 'serve', '--print-env', '--host', '0.0.0.0', '--data', data])).stdout).toContain(
      'VMV_BASE_URL=http://127.0.0.1:4010 ',
    );
    expect((await cli(['sim', 'serve', '--print-env', '--port', '0', '--data', data])).code).toBe(2);
  });
});
