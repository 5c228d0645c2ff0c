// vmv api: raw requests through the CLI's client, the same cases on both targets (the embedded
// simulator and a started `vmv sim serve`), whose outputs must match byte for byte.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bufferIO } from '../src/io.js';
import { main } from '../src/main.js';
import { T0, tempDir, useTargets, type Target } from './helpers.js';

const { targets, both } = useTargets({ resetEach: true });
const each = (fn: (t: Target) => Promise<void>) => Promise.all([fn(targets.embedded), fn(targets.remote)]);

describe('vmv api', () => {
  it('GET prints the body exactly as received; the leading slash is optional', async () => {
    const r = await both(['api', 'v1/contacts']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('{"data":[],"meta":{"page_size":20,"total_results":0}}\n');
    const g = await both(['api', 'GET', '/v1/contacts']);
    expect(g.stdout).toBe(r.stdout);
  });

  it('on a terminal, JSON is pretty-printed with a 2-space indent', async () => {
    const r = await both(['api', '/_sim/clock'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `{\n  "now": "${T0}",\n  "mode": "manual",\n  "next_due_at": null,\n  "next_job_due_at": null\n}\n`,
    );
  });

  it('/v1/openapi.json prints the API description', async () => {
    const r = await both(['api', '/v1/openapi.json']);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ openapi: '3.1.0', info: { version: '1.0.0' } });
    expect(Object.keys(r.json.paths)).toContain('/v1/quick/emails');
    const c = await both(['api', '/_sim/openapi.json']);
    expect(Object.keys(c.json.paths).every((p) => p.startsWith('/_sim/'))).toBe(true);
  });

  it('-f and -F build a typed JSON body and default the method to POST (/_sim routes too)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.txt'), 'met at the conference\n');
    const r = await both([
      'api',
      '/_sim/contacts',
      '-f',
      'name=Grace Hopper',
      '-f',
      'email=grace@navy.example',
      '-f',
      'phone_number=+15550002001',
      '-f',
      'tags[]=vip',
      '-f',
      'tags[]=42',
      '-F',
      `notes=@${join(dir, 'notes.txt')}`,
      '-F',
      'custom_fields[score]=5',
      '-F',
      'custom_fields[ratio]=-1.5',
      '-F',
      'custom_fields[active]=true',
      '-F',
      'custom_fields[left]=false',
      '-F',
      'custom_fields[none]=null',
      '-F',
      'custom_fields[zip]=+15550002001',
      '-f',
      'custom_fields[raw]=7',
      '-F',
      'custom_fields[list][][n]=1',
      '-F',
      'custom_fields[list][][m]=2',
      '-F',
      'custom_fields[list][][n]=3',
      '-f',
      'custom_fields[empty][]',
    ]);
    expect(r.code).toBe(0);
    const c = r.json.data;
    expect(c).toMatchObject({
      name: 'Grace Hopper',
      email: 'grace@navy.example',
      phone_number: '+15550002001',
      tags: ['vip', '42'],
      notes: 'met at the conference\n',
    });
    expect(c.custom_fields).toEqual({
      raw: '7',
      empty: [],
      score: 5,
      ratio: -1.5,
      active: true,
      left: false,
      none: null,
      zip: '+15550002001',
      list: [{ n: 1, m: 2 }, { n: 3 }],
    });
    // the record as stored
    const got = await both(['api', `/v1/contacts/${c.id}`]);
    expect(got.json.data.custom_fields).toEqual(c.custom_fields);
  });

  it('POST /v1/quick/emails with -f arrays; -H adds headers (an Idempotency-Key replays)', async () => {
    const args = [
      'api',
      'POST',
      '/v1/quick/emails',
      '-f',
      'to[]=ada@example.com',
      '-f',
      'to[]=grace@example.com',
      '-f',
      'subject=Hi',
      '-f',
      'body=Hello there',
      '-H',
      'Idempotency-Key: api-1',
    ];
    const a = await both(args);
    expect(a.code).toBe(0);
    expect(a.json.data).toMatchObject({
      kind: 'email',
      status: 'sent',
      sent_to: ['ada@example.com', 'grace@example.com'],
      cost_usd: 0.02,
    });
    await each(async (t) => {
      const b = await t.run([...args, '--include']);
      expect(b.stdout).toBe(a.stdout);
      expect(b.stderr).toMatch(/^HTTP\/1\.1 200 OK\n/);
      expect(b.stderr).toContain('\nidempotency-replay: true\n');
    });
  });

  it('GET puts fields in the query string', async () => {
    // the API description takes no query: the 400 names each parameter sent (-f fields first, then -F)
    const r = await both(['api', '-X', 'get', '/v1/openapi.json', '-F', 'b=true', '-f', 'a=1', '-f', 'c[]=x']);
    expect(r.code).toBe(1);
    expect(Object.keys(r.json.error.fields)).toEqual(['a', 'c[]', 'b']);
    expect((await both(['api', '/v1/openapi.json', '-F', 'a=1'])).stderr).toContain('(method_not_allowed, HTTP 405)'); // fields alone mean POST
  });

  it('--input - sends standard input as the body (POST by default); fields then go to the query', async () => {
    const r = await both(['api', '/_sim/contacts', '--input', '-'], {
      stdin: '{"name": "Ada Lovelace", "tags": ["math"]}',
    });
    expect(r.code).toBe(0);
    expect(r.json.data).toMatchObject({ name: 'Ada Lovelace', tags: ['math'] });
    const dir = tempDir();
    writeFileSync(join(dir, 'advance.json'), '{"seconds": 90}');
    const a = await both(['api', 'POST', '/_sim/clock/advance', '--input', join(dir, 'advance.json')]);
    expect(a.json.now).toBe('2026-01-05T09:01:30.000Z');
    const q = await both(['api', '/v1/quick/emails', '--input', '-', '-f', 'bogus=1'], {
      stdin: '{"to": ["a@example.com"], "subject": "x", "body": "y"}',
    });
    expect(q.code).toBe(1);
    expect(q.json.error.fields).toEqual({ bogus: 'is not a known query parameter' });
  });

  it('--paginate follows meta.cursor over 3 pages and prints every item as one array', async () => {
    for (const n of [1, 2, 3, 4, 5])
      await both(['api', '/_sim/contacts', '-f', `name=Person ${n}`, '-f', `email=p${n}@example.com`]);
    const r = await both(['api', '--paginate', '/v1/contacts?limit=2']);
    expect(r.code).toBe(0);
    expect(r.stdout.endsWith(']\n')).toBe(true);
    expect(r.json.map((p: any) => p.name)).toEqual(['Person 5', 'Person 4', 'Person 3', 'Person 2', 'Person 1']);
    // the same with limit from a field, and each page's status line with --include
    await each(async (t) => {
      const i = await t.run(['api', '--paginate', '/v1/contacts', '-F', 'limit=2', '--include']);
      expect(i.stdout).toBe(r.stdout);
      expect(i.stderr.match(/^HTTP\/1\.1 200 OK$/gm)).toHaveLength(3);
    });
    const tty = await both(['api', '--paginate', '/v1/contacts?limit=2'], { tty: true });
    expect(tty.stdout).toBe(JSON.stringify(r.json, null, 2) + '\n');
  });

  it('--include prints the status line and headers to stderr', async () => {
    await each(async (t) => {
      const r = await t.run(['api', '-i', '/_sim/clock']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`{"now":"${T0}","mode":"manual","next_due_at":null,"next_job_due_at":null}\n`);
      const lines = r.stderr.split('\n');
      expect(lines[0]).toBe('HTTP/1.1 200 OK');
      expect(lines).toContain('content-type: application/json; charset=utf-8');
      expect(lines.some((l) => /^request-id: req_\w+$/.test(l))).toBe(true);
      expect(r.stderr.endsWith('\n\n')).toBe(true);
    });
  });

  it('an error status prints the body, one line on stderr, and the exit code other commands use', async () => {
    const nf = await both(['api', '/v1/contacts/00000000-0000-4000-8000-000000000000']);
    expect(nf.code).toBe(1);
    expect(nf.json.error.code).toBe('not_found');
    expect(nf.stdout).toBe(`${JSON.stringify(nf.json)}\n`); // ends with a newline, as every output does
    expect(nf.stderr).toBe(`error: ${nf.json.error.message} (not_found, HTTP 404)\n`);
    const bad = await both(['api', 'POST', '/v1/quick/emails', '-f', 'to[]=ada@example.com', '-f', 'subject=Hi']);
    expect(bad.code).toBe(1);
    expect(bad.json.error).toMatchObject({ code: 'validation_error', fields: { body: 'is required' } });
    expect(bad.stderr).toBe(`error: ${bad.json.error.message} (validation_error, HTTP 400)\n`);
    const typed = await both(['api', '/_sim/contacts', '-f', 'name=X', '-F', 'tags[]=true']);
    expect(typed.code).toBe(1);
    expect(typed.json.error.fields).toEqual({ 'tags[0]': 'must be a string, got boolean' });
    const route = await both(['api', 'DELETE', '/v1/contacts']);
    expect(route.code).toBe(1);
    expect(route.stderr).toContain('(method_not_allowed, HTTP 405)');
  });

  it('-H overrides the configured key: 401 exits 3; "Authorization:" sends none', async () => {
    const r = await both(['api', '/v1/contacts', '-H', 'Authorization: Bearer sk_sim_not_a_key']);
    expect(r.code).toBe(3);
    expect(r.json.error.code).toBe('unauthorized');
    expect(r.stderr).toBe('error: The API key is not valid. (unauthorized, HTTP 401)\n');
    const none = await both(['api', '/v1/contacts', '-H', 'authorization:']);
    expect(none.code).toBe(3);
    expect(none.json.error.message).toMatch(/^Missing API key/);
    expect((await both(['api', '/v1/openapi.json', '-H', 'Authorization:'])).code).toBe(0); // public
  });

  it('writes a non-JSON body (audio/wav) raw, byte for byte', async () => {
    const call = await both([
      'api',
      '/_sim/calls',
      '-f',
      'direction=outbound',
      '-f',
      'from_number=+15550000001',
      '-f',
      'to_number=+15550000002',
      '-F',
      'duration_seconds=3',
      '-F',
      'has_recording=true',
    ]);
    expect(call.code).toBe(0);
    const bytes = await Promise.all(
      [targets.embedded, targets.remote].map(async (t) => {
        const io = await bufferIO();
        expect(
          await main(['api', `/v1/calls/${call.json.data.id}/recording`], io, {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            ...t.env,
          }),
        ).toBe(0);
        return io.stdoutBytes();
      }),
    );
    expect(bytes[0].subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes[0].readUInt32LE(4)).toBe(bytes[0].length - 8);
    expect(bytes[1].equals(bytes[0])).toBe(true);
  });

  it('usage errors exit 2 with a clear message and send nothing', async () => {
    const cases: [string[], string][] = [
      [['api'], 'Give the PATH'],
      [['api', 'POST'], 'Give the PATH after the method'],
      [['api', 'GET', '/v1/contacts', 'extra'], 'Too many arguments'],
      [['api', 'FETCH', '/v1/contacts'], 'Unknown method "FETCH"'],
      [['api', 'GET', '/v1/contacts', '-X', 'POST'], 'Give the method once'],
      [['api', '/_sim/contacts', '-f', 'name'], '-f "name": a field needs a value after "="'],
      [['api', '/_sim/contacts', '-F', 'a]b=1'], '-F "a]b=1": a field is key=value'],
      [
        ['api', '/_sim/contacts', '-f', 'name=a', '-f', 'name=b'],
        'The field "name=b" conflicts with an earlier field at "name"',
      ],
      [['api', '/_sim/contacts', '-f', 'a=1', '-f', 'a[b]=2'], 'conflicts with an earlier field at "a"'],
      [
        ['api', 'POST', '/v1/contacts', '--paginate'],
        '--paginate follows the pages of a GET list; it cannot be used with POST',
      ],
      [['api', '/v1/contacts', '--paginate', '--input', '-'], '--paginate cannot be used with --input'],
      [
        ['api', '/_sim/contacts', '--input', '/no/such/file.json'],
        '--input: cannot read /no/such/file.json: no such file',
      ],
      [
        ['api', '/_sim/contacts', '-F', 'notes=@/no/such/file'],
        '-F notes=@/no/such/file: cannot read /no/such/file: no such file',
      ],
      [['api', '/_sim/contacts', '--input', '-', '-F', 'notes=@-'], 'Standard input can be read once'],
      [['api', '/v1/contacts', '-H', 'NoColon'], '-H takes "Name: value", got "NoColon"'],
      [['api', '/v1/contacts', '-H', 'Content-Length: 5'], 'vmv api sets this header itself'],
      [['api', 'https://example.com/v1/contacts'], 'not a URL'],
      [['api', '/v1/contacts', '--bogus'], "unknown option '--bogus'"],
    ];
    for (const [args, message] of cases) {
      const r = await both(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toContain(message);
    }
    // nothing was created by any of them
    expect((await both(['api', '/v1/contacts'])).json.data).toEqual([]);
  });

  it('--paginate on something that is not a list is a usage error', async () => {
    const r = await both(['api', '--paginate', '/_sim/clock']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did not answer a list');
  });
});
