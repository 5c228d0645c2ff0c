// bin/vmv as a user runs it: a real process, with no configuration at all.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from './helpers.js';

/** Runs bin/vmv with a fresh HOME and none of our variables, as on a new machine. */
function vmv(args: string[], o: { env?: Record<string, string>; home?: string } = {}) {
  const home = o.home ?? tempDir();
  const env = { PATH: process.env.PATH!, HOME: home, ...o.env };
  const r = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, home };
}

describe('bin/vmv', () => {
  it('--help and no arguments print help and exit 0; --version prints the version', () => {
    const h = vmv(['--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('Usage: vmv');
    for (const noun of ['email', 'history', 'contacts', 'sim', 'config']) expect(h.stdout).toContain(noun);
    // (the help names the data file in use: the same home, the same help)
    expect(h.stdout).toContain(join(h.home, '.local/share/vmv/sim.json'));
    expect(vmv([], { home: h.home }).stdout).toBe(h.stdout);
    expect(vmv(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("the README's first command works with no configuration, on the embedded simulator in the user's data folder", () => {
    const r = vmv([
      'email',
      'send',
      '--to',
      'ada@example.com',
      '--subject',
      'Hello',
      '--body',
      'First email from the simulator',
    ]);
    expect(r.stderr).toContain('Sent to 1 recipient');
    expect(r.code).toBe(0);
    expect(existsSync(join(r.home, '.local/share/vmv/sim.json'))).toBe(true);
    const again = vmv(['history', 'emails', '--email', 'ada@example.com', '--json'], { home: r.home });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).data).toHaveLength(1);
  });

  it('a reader that goes away (| head) ends vmv quietly', () => {
    const home = tempDir();
    const r = spawnSync(
      'bash',
      ['-c', `set -o pipefail; ${process.execPath} ${BIN} numbers search --limit 50 | head -1`],
      { encoding: 'utf8', env: { PATH: process.env.PATH!, HOME: home } },
    );
    expect(r.stdout).toMatch(/^\+1\d{10}\t/);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('stdout a file or /dev/null: written whole with fs.writeSync, the same bytes as a pipe gets, without node:stream', () => {
    const home = tempDir();
    // a preload that says, at exit, whether node:stream was loaded (process.stdout on a file loads it)
    const probe = join(home, 'probe.cjs');
    writeFileSync(
      probe,
      "process.on('exit', () => { const s = process.moduleLoadList.includes('NativeModule stream'); process.stderr.write(`stream:${s}\\n`); });",
    );
    const toFile = (args: string[], file: string) => {
      const fd = openSync(file, 'w');
      try {
        return spawnSync(process.execPath, ['--require', probe, BIN, ...args], {
          env: { PATH: process.env.PATH!, HOME: home },
          stdio: ['ignore', fd, 'pipe'],
          encoding: 'utf8',
        });
      } finally {
        closeSync(fd);
      }
    };
    const out = join(home, 'help.txt');
    const r = toFile(['--help'], out);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('stream:false\n');
    expect(readFileSync(out, 'utf8')).toBe(vmv(['--help'], { home }).stdout);
    // a command's data, whole, and to /dev/null without node:stream either
    const list = toFile(['numbers', 'search', '--limit', '50', '--json'], out);
    expect(list.status).toBe(0);
    const piped = vmv(['numbers', 'search', '--limit', '50', '--json'], { home }).stdout;
    expect(JSON.parse(piped).data).toHaveLength(50);
    expect(readFileSync(out, 'utf8')).toBe(piped);
    expect(toFile(['--help'], '/dev/null').stderr).toBe('stream:false\n');
  });

  it('a terminal gets colour, and NO_COLOR turns it off', () => {
    const home = tempDir();
    const run = (extra: string) =>
      spawnSync(
        'script',
        [
          '-qec',
          `${extra} HOME=${home} ${process.execPath} ${BIN} history emails --email nobody@example.com`,
          '/dev/null',
        ],
        { encoding: 'utf8', env: { PATH: process.env.PATH! } },
      );
    vmv(['email', 'send', '--to', 'nobody@example.com', '--subject', 's', '--body', 'b'], { home });
    expect(run('').stdout).toContain('\u001b[1m');
    const plain = run('NO_COLOR=1');
    expect(plain.stdout).toContain('nobody@example.com');
    expect(plain.stdout).not.toContain('\u001b[');
  });
});
