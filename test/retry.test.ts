// The retry policy of src/retry.ts as a table: for each kind of request and each way an attempt can
// end, whether it is sent again and after how long. No network: the pure rules only (the faults
// themselves are injected for real in cli-network-faults.test.ts).
import { describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  decide,
  faultOf,
  retryAfterMs,
  settlementOf,
  type Outcome,
  type RetryPolicy,
  type RetryRequest,
  type Settlement,
} from '../src/retry.js';
import { prune, UNSETTLED_TTL_MS } from '../src/unsettled.js';
import { tempDir } from './temp.js';

const policy: RetryPolicy = { retries: 2, baseMs: 500, capMs: 5_000, maxRetryAfterMs: 20_000 };
const NOW = Date.parse('2026-01-05T09:00:00Z');

const post = (path: string, hasKey: boolean): RetryRequest => ({ method: 'POST', path, hasKey });
const get: RetryRequest = { method: 'GET', path: '/v1/contacts', hasKey: false };
const keyedV1 = post('/v1/quick/emails', true);
const bareV1 = post('/v1/quick/emails', false);
const keyedSim = post('/_sim/contacts', true);
const patchKeyed: RetryRequest = { method: 'PATCH', path: '/v1/video-schedules/s1', hasKey: true };
const del: RetryRequest = { method: 'DELETE', path: '/v1/webhooks/w1', hasKey: false };
const putSim: RetryRequest = { method: 'PUT', path: '/_sim/hosts/x', hasKey: false };

const refused: Outcome = { fault: 'unreached', code: 'ECONNREFUSED' };
const lost: Outcome = { fault: 'lost', code: 'UND_ERR_SOCKET' };
const timeout: Outcome = { fault: 'timeout', code: 'UND_ERR_HEADERS_TIMEOUT' };
const status = (s: number, retryAfter?: string): Outcome => ({ status: s, retryAfter });

// request, outcome, retries so far → retried?, or why not
const table: [string, RetryRequest, Outcome, number, true | string][] = [
  ['a read after a lost reply', get, lost, 0, true],
  ['a read after no reply in time', get, timeout, 1, true],
  ['a read out of retries', get, lost, 2, 'exhausted'],
  ['a keyed /v1 write after a lost reply', keyedV1, lost, 0, true],
  ['a keyed /v1 write after no reply in time', keyedV1, timeout, 0, true],
  ['a keyed /v1 PATCH after a lost reply', patchKeyed, lost, 0, true],
  ['a /v1 write without a key after a lost reply', bareV1, lost, 0, 'unsafe'],
  ['a /v1 write without a key after no reply in time', bareV1, timeout, 0, 'unsafe'],
  ['a /v1 write without a key that was never sent', bareV1, refused, 0, true],
  ['a /_sim write, keyed, after a lost reply (the control plane keeps no keys)', keyedSim, lost, 0, 'unsafe'],
  ['a /_sim write never sent', keyedSim, { fault: 'unreached', code: 'UND_ERR_CONNECT_TIMEOUT' }, 1, true],
  ['a /_sim write after a 503', keyedSim, status(503), 0, 'unsafe'],
  [
    'a certificate not accepted: nothing was sent, and the next attempt meets the same certificate',
    bareV1,
    { fault: 'unreached', code: 'DEPTH_ZERO_SELF_SIGNED_CERT' },
    0,
    'certificate',
  ],
  [
    'a /_sim write the caller knows to be repeatable (the clock to at least a time) after a 503',
    { ...keyedSim, repeatable: true },
    status(503),
    0,
    true,
  ],
  ['a repeatable /_sim write after a lost reply', { ...keyedSim, repeatable: true }, lost, 1, true],
  ['a DELETE without a key after a lost reply (idempotent by nature)', del, lost, 0, true],
  ['a PUT on /_sim after a lost reply (idempotent by nature)', putSim, lost, 0, true],
  ['a keyed write after 502', keyedV1, status(502), 0, true],
  ['a keyed write after 503', keyedV1, status(503), 1, true],
  ['a keyed write after 504', keyedV1, status(504), 0, true],
  ['a keyed write after 429', keyedV1, status(429, '1'), 0, true],
  ['a write without a key after 429', bareV1, status(429, '1'), 0, 'unsafe'],
  ['a read after 500 (not a retry status)', get, status(500), 0, 'answered'],
  ['a read after 409', get, status(409), 0, 'answered'],
  ['a read after 200', get, status(200), 0, 'answered'],
  ['a never-sent request out of retries', bareV1, refused, 2, 'exhausted'],
  ['a 429 asking for longer than 20 s', keyedV1, status(429, '50'), 0, 'retry_after_too_long'],
];

describe('decide', () => {
  for (const [name, req, outcome, retried, expected] of table) {
    it(name, () => {
      const d = decide(req, outcome, retried, policy, () => 0.5, NOW);
      if (expected === true) expect(d.retry).toBe(true);
      else expect(d).toEqual({ retry: false, why: expected });
    });
  }

  it('backoff: exponential with full jitter, capped', () => {
    const delay = (retried: number, random: number) => {
      const d = decide(get, lost, retried, { ...policy, retries: 10 }, () => random, NOW);
      return d.retry ? d.delayMs : NaN;
    };
    expect([0, 1, 2, 3].map((n) => delay(n, 1))).toEqual([500, 1000, 2000, 4000]);
    expect(delay(4, 1)).toBe(5000); // 8000 capped
    expect(delay(9, 1)).toBe(5000);
    expect(delay(2, 0)).toBe(0); // full jitter: anywhere from nothing
    expect(delay(2, 0.25)).toBe(500);
  });

  it('Retry-After is waited at least, in seconds or as an HTTP-date', () => {
    const after = (v: string, random = 0) => {
      const d = decide(keyedV1, status(429, v), 0, policy, () => random, NOW);
      return d.retry ? d.delayMs : d.why;
    };
    expect(after('1')).toBe(1000);
    expect(after('0', 1)).toBe(500); // the backoff when it asks for less
    expect(after('20')).toBe(20_000);
    expect(after('21')).toBe('retry_after_too_long');
    expect(after(new Date(NOW + 3000).toUTCString())).toBe(3000);
    expect(after('soon', 1)).toBe(500); // not a Retry-After: ignored
  });
});

describe('faultOf and retryAfterMs', () => {
  const cases: [string, string][] = [
    ['ECONNREFUSED', 'unreached'],
    ['ENOTFOUND', 'unreached'],
    ['EAI_AGAIN', 'unreached'],
    ['UND_ERR_CONNECT_TIMEOUT', 'unreached'],
    ['UND_ERR_SOCKET', 'lost'],
    ['ECONNRESET', 'lost'],
    ['EPIPE', 'lost'],
    ['', 'lost'],
    ['UND_ERR_HEADERS_TIMEOUT', 'timeout'],
    ['UND_ERR_BODY_TIMEOUT', 'timeout'],
    // a TLS handshake that failed: no connection, nothing sent
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'unreached'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'unreached'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unreached'],
    ['CERT_HAS_EXPIRED', 'unreached'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'unreached'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'unreached'],
  ];
  for (const [code, fault] of cases) it(`${code || '(no code)'} → ${fault}`, () => expect(faultOf(code)).toBe(fault));

  it('parses delay-seconds and HTTP-dates; a past date is now; anything else is null', () => {
    expect(retryAfterMs('120', NOW)).toBe(120_000);
    expect(retryAfterMs(' 3 ', NOW)).toBe(3000);
    expect(retryAfterMs('Mon, 05 Jan 2026 09:00:10 GMT', NOW)).toBe(10_000);
    expect(retryAfterMs('Mon, 05 Jan 2026 08:00:00 GMT', NOW)).toBe(0);
    expect(retryAfterMs('-1', NOW)).toBeNull();
    expect(retryAfterMs('1.5', NOW)).toBeNull();
    expect(retryAfterMs(undefined, NOW)).toBeNull();
  });
});

describe('settlementOf: whether a write ended answered, unknown, or unapplied (what keeps its key for a rerun)', () => {
  // final status (null: no reply), whether some attempt may have reached the service → settlement
  const rows: [string, number | null, boolean, Settlement][] = [
    ['a 2xx, first time', 201, false, 'answered'],
    ['a 2xx after a lost reply (the replay)', 200, true, 'answered'],
    ['a refusal after a lost reply (judged with the same key)', 422, true, 'answered'],
    ['a 409 idempotency_conflict', 409, true, 'answered'],
    ['no reply after the request was sent', null, true, 'unknown'],
    ['a 502 after the retries', 502, true, 'unknown'],
    ['a 429 after a lost reply', 429, true, 'unknown'],
    ['a 408 after a lost reply', 408, true, 'unknown'],
    ['a 500 after a lost reply', 500, true, 'unknown'],
    ['could not connect at all', null, false, 'unapplied'],
    ['429s that never reached the service', 429, false, 'unapplied'],
    ["a lone 500 (the service's word that it failed)", 500, false, 'unapplied'],
  ];
  for (const [name, status, reached, want] of rows) it(name, () => expect(settlementOf(status, reached)).toBe(want));
});

describe('prune: the kept keys stay bounded', () => {
  it('removes entries past 24 hours, temporary files a dead process left, and the oldest past the cap', () => {
    const dir = join(tempDir(), 'unsettled');
    mkdirSync(dir);
    const now = Date.now();
    const file = (name: string, ageMs: number) => {
      writeFileSync(join(dir, name), '{}');
      utimesSync(join(dir, name), (now - ageMs) / 1000, (now - ageMs) / 1000);
    };
    for (let i = 0; i < 8; i++) file(`e${i}.json`, i * 60_000);
    file('expired.json', UNSETTLED_TTL_MS + 1000);
    file('x.json.1.ab.tmp', 2 * 3600_000);
    file('y.json.2.cd.tmp', 1000); // a write under way
    prune(dir, now, 5);
    expect(readdirSync(dir).sort()).toEqual(['e0.json', 'e1.json', 'e2.json', 'e3.json', 'e4.json', 'y.json.2.cd.tmp']);
  });
});
