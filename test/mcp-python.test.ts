// `vmv mcp` through the official Python SDK's client (test/fixtures/mcp_client.py): the listing's
// schemas valid under Python's jsonschema, results as JSON text, a cursor never given refused
// (-32602), the newest revision negotiated, and a one-shot pipe answering every request. Its venv (pip install mcp) is made once under
// node_modules/.cache and reused; where python's mcp cannot be installed the test is skipped, said in
// one line.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, childEnv, tempDir } from './helpers.js';
import { requires } from './skips.js';

const VENV = new URL('../node_modules/.cache/vmv-mcp-python', import.meta.url).pathname;
const PY = join(VENV, 'bin', 'python');

/** The venv's python with mcp importable, made if need be; null (and why) where it cannot be. */
function python(): { py: string | null; why?: string } {
  const ready = () => existsSync(PY) && spawnSync(PY, ['-c', 'import mcp, jsonschema']).status === 0;
  if (ready()) return { py: PY };
  const venv = spawnSync('python3', ['-m', 'venv', VENV], { encoding: 'utf8' });
  if (venv.status !== 0) return { py: null, why: `python3 -m venv failed: ${venv.stderr.trim().split('\n').pop()}` };
  const pip = spawnSync(join(VENV, 'bin', 'pip'), ['install', '-q', '--retries', '1', 'mcp'], {
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (!ready()) return { py: null, why: `pip install mcp failed: ${(pip.stderr ?? '').trim().split('\n').pop()}` };
  return { py: PY };
}

const { py, why } = python();

describe("the Python SDK's client", () => {
  requires(py ? null : `the Python MCP SDK could not be had: ${why}`);
  it('lists schemas jsonschema accepts, calls tools, negotiates 2025-11-25; a one-shot pipe answers every request', () => {
    const dir = tempDir();
    const env = childEnv(dir);
    const script = new URL('./fixtures/mcp_client.py', import.meta.url).pathname;
    const out = execFileSync(py!, [script, BIN, JSON.stringify(env)], { encoding: 'utf8', timeout: 180_000 });
    const r = JSON.parse(out.trim().split('\n').pop()!);
    expect(r.session).toMatchObject({
      protocol: '2025-11-25',
      bad_schemas: [],
      email_status: 'sent',
      text_is_structured: true,
      bad_cursor: -32602,
    });
    expect(r.session.tools).toBeGreaterThan(50);
    expect(r.pipe).toEqual({ code: 0, ids: [1, 2], sent: 'sent' });
  }, 200_000);
});
