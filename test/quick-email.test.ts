// POST /v1/quick/emails, sentence by sentence (spec Part 4 "Quick email", Limits, Pricing, Errors).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim, T0, type Sim } from './helpers.js';

let sim: Sim;
beforeAll(async () => (sim = await startSim()));
afterAll(() => sim.stop());
beforeEach(() => sim.reset());

const base = { to: ['ada@example.com'], subject: 'Hello', body: 'Plain text.' };
const send = (body: unknown) => sim.api('POST', '/v1/quick/emails', { body });
const contact = async (name: string, email?: string | null) =>
  (await sim.api('POST', '/_sim/contacts', { body: { name, email } })).json.data;
const wallet = async () => (await sim.api('GET', '/_sim/workspace')).json.wallet_usd as number;

describe('the result object (Part 2)', () => {
  it("has exactly the spec's fields, kind email, status sent", async () => {
    const r = await send({ ...base, to: ['ada@example.com', 'bob@example.org'] });
    expect(r.status).toBe(200);
    const d = r.json.data;
    expect(Object.keys(r.json)).toEqual(['data']);
    expect(Object.keys(d).sort()).toEqual([
      'cost_usd',
      'from',
      'id',
      'kind',
      'pricing',
      'recipients',
      'reply_to',
      'sent_to',
      'status',
      'suppressed',
    ]);
    expect(d.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(d.kind).toBe('email');
    expect(d.status).toBe('sent');
    expect(d.sent_to).toEqual(['ada@example.com', 'bob@example.org']);
    expect(d.suppressed).toEqual([]);
    expect(d.cost_usd).toBe(0.02);
    expect(d.pricing.per_recipient_usd).toBe(0.01);
    expect(typeof d.pricing.note).toBe('string');
    for (const rec of d.recipients)
      expect(Object.keys(rec).sort()).toEqual(['contact_id', 'contact_name', 'email', 'input']);
  });
  it('goes from "<workspace name> via <service>", or "<from_name> via <service>"', async () => {
    expect((await send(base)).json.data.from).toBe('Acme Sandbox via vmv');
    expect((await send({ ...base, from_name: 'Ada at Acme' })).json.data.from).toBe('Ada at Acme via vmv');
  });
  it("replies go to reply_to, by default the email of the API key's owner", async () => {
    const owner = (await sim.api('GET', '/_sim/workspace')).json.owner.email;
    expect((await send(base)).json.data.reply_to).toBe(owner);
    expect((await send({ ...base, reply_to: 'help@acme.example' })).json.data.reply_to).toBe('help@acme.example');
  });
  it('each recipient gets an individual copy: one email record per address, none listing the others', async () => {
    await send({ ...base, to: ['ada@example.com', 'bob@example.org'] });
    const a = (await sim.api('GET', '/v1/emails?email=ada@example.com')).json.data;
    const b = (await sim.api('GET', '/v1/emails?email=bob@example.org')).json.data;
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(1);
    expect(a[0].to).toBe('ada@example.com');
    expect(JSON.stringify(a[0])).not.toContain('bob@example.org');
  });
});

describe('field bounds (Part 4 table and Limits); unknown fields rejected', () => {
  const bad = async (body: unknown, field: string) => {
    const r = await send(body);
    expect(r.status, JSON.stringify(r.json)).toBe(400);
    expect(r.json.error.code).toBe('validation_error');
    expect(r.json.error.fields[field], JSON.stringify(r.json.error.fields)).toBeDefined();
  };
  it('to, subject and body are required', async () => {
    const r = await send({});
    expect(r.status).toBe(400);
    expect(Object.keys(r.json.error.fields).sort()).toEqual(['body', 'subject', 'to']);
  });
  it('to: 1 to 20 entries, each 1 to 254 characters', async () => {
    await bad({ ...base, to: [] }, 'to');
    await bad({ ...base, to: Array.from({ length: 21 }, (_, i) => `u${i}@example.com`) }, 'to');
    expect((await send({ ...base, to: Array.from({ length: 20 }, (_, i) => `u${i}@example.com`) })).status).toBe(200);
    await bad({ ...base, to: [''] }, 'to[0]');
    await bad({ ...base, to: ['ok@example.com', `${'a'.repeat(243)}@example.com`] }, 'to[1]');
    expect((await send({ ...base, to: [`${'a'.repeat(242)}@example.com`] })).status).toBe(200);
    await bad({ ...base, to: ['ok@example.com', 7] }, 'to[1]');
  });
  it('subject 1 to 200, body 1 to 20000, from_name 1 to 60', async () => {
    await bad({ ...base, subject: '' }, 'subject');
    await bad({ ...base, subject: 's'.repeat(201) }, 'subject');
    expect((await send({ ...base, subject: 's'.repeat(200) })).status).toBe(200);
    await bad({ ...base, body: '' }, 'body');
    await bad({ ...base, body: 'b'.repeat(20001) }, 'body');
    expect((await send({ ...base, body: 'b'.repeat(20000) })).status).toBe(200);
    await bad({ ...base, from_name: '' }, 'from_name');
    await bad({ ...base, from_name: 'n'.repeat(61) }, 'from_name');
    expect((await send({ ...base, from_name: 'n'.repeat(60) })).status).toBe(200);
  });
  it("reply_to: at most 254 and the spec's pattern", async () => {
    for (const ok of ['a.b+c@mail.example.com', 'x@y.io'])
      expect((await send({ ...base, reply_to: ok })).status).toBe(200);
    for (const no of [
      'no-at-sign.example.com',
      'a b@example.com',
      'a@b',
      'a@example.c',
      'a@example.COM',
      'a<b@example.com',
      'a@exa,mple.com',
      'a;b@example.com',
      '"a"@example.com',
      'a@b@example.com',
      'a:b@example.com',
      '(a)@example.com',
    ])
      await bad({ ...base, reply_to: no }, 'reply_to');
    await bad({ ...base, reply_to: `${'a'.repeat(245)}@example.com` }, 'reply_to');
  });
  it('unknown fields are rejected', async () => {
    await bad({ ...base, cc: ['x@example.com'] }, 'cc');
    await bad({ ...base, html: '<b>x</b>' }, 'html');
  });
  it('an entry with @ that is not an address is 400', async () => {
    await bad({ ...base, to: ['not an@address'] }, 'to[0]');
  });
});

describe('contact names', () => {
  it("match case-insensitively and use the contact's email on file", async () => {
    const grace = await contact('Grace Hopper', 'grace@navy.example');
    const r = await send({ ...base, to: ['grace hopper'] });
    expect(r.status).toBe(200);
    expect(r.json.data.recipients).toEqual([
      { input: 'grace hopper', email: 'grace@navy.example', contact_id: grace.id, contact_name: 'Grace Hopper' },
    ]);
    expect(r.json.data.sent_to).toEqual(['grace@navy.example']);
  });
  it('tolerate small typos', async () => {
    await contact('Grace Hopper', 'grace@navy.example');
    for (const typo of ['Grace Hoper', 'Garce Hopper', 'grace hoppr'])
      expect((await send({ ...base, to: [typo] })).json.data.sent_to).toEqual(['grace@navy.example']);
  });
  it('a name that matches no one → 404, naming the entry', async () => {
    await contact('Grace Hopper', 'grace@navy.example');
    const r = await send({ ...base, to: ['ada@example.com', 'Linus Torvalds'] });
    expect(r.status).toBe(404);
    expect(r.json.error.fields['to[1]']).toMatch(/matches no contact/);
    expect(await wallet()).toBe(50); // nothing sent, nothing charged
  });
  it('a name that could be two people → 422 listing the candidates', async () => {
    const a = await contact('John Smith', 'john.smith@example.com');
    const b = await contact('John Doe', 'john.doe@example.com');
    const r = await send({ ...base, to: ['John'] });
    expect(r.status).toBe(422);
    expect(r.json.error.fields['to[0]']).toMatch(/could be 2 contacts/);
    expect(r.json.error.candidates).toEqual([
      {
        input: 'John',
        contacts: [
          { id: a.id, name: 'John Smith', email: 'john.smith@example.com' },
          { id: b.id, name: 'John Doe', email: 'john.doe@example.com' },
        ],
      },
    ]);
    // the full name settles it
    expect((await send({ ...base, to: ['John Doe'] })).json.data.sent_to).toEqual(['john.doe@example.com']);
  });
  it('an address that belongs to a contact is linked to that contact', async () => {
    const g = await contact('Grace Hopper', 'grace@navy.example');
    const r = await send({ ...base, to: ['GRACE@navy.example'] });
    expect(r.json.data.recipients[0]).toMatchObject({ contact_id: g.id, contact_name: 'Grace Hopper' });
  });
  it('a matched contact without an email address → 422', async () => {
    await contact('Nomail Person', null);
    const r = await send({ ...base, to: ['Nomail Person'] });
    expect(r.status).toBe(422);
    expect(r.json.error.fields['to[0]']).toMatch(/no email address/);
  });
});

describe('suppression list', () => {
  it('suppressed recipients are skipped, listed in suppressed, and not charged', async () => {
    await sim.api('POST', '/_sim/suppressions', { body: { email: 'gone@example.com' } });
    const r = await send({ ...base, to: ['ada@example.com', 'Gone@Example.com'] });
    expect(r.json.data.sent_to).toEqual(['ada@example.com']);
    expect(r.json.data.suppressed).toEqual(['Gone@Example.com']);
    expect(r.json.data.cost_usd).toBe(0.01);
    expect(await wallet()).toBe(49.99);
    expect((await sim.api('GET', '/v1/emails?email=gone@example.com')).json.data).toEqual([]);
  });
  it('the same address twice is sent and charged once', async () => {
    const r = await send({ ...base, to: ['ada@example.com', 'ADA@example.com'] });
    expect(r.json.data.sent_to).toEqual(['ada@example.com']);
    expect(r.json.data.recipients).toHaveLength(2);
    expect(r.json.data.cost_usd).toBe(0.01);
  });
});

describe('200 recipients per workspace per rolling 24 hours', () => {
  const batch = (i: number, n = 20) => ({ ...base, to: Array.from({ length: n }, (_, j) => `r${i}-${j}@example.com`) });
  it('the 201st recipient in 24 hours → 409; the window rolls', async () => {
    for (let i = 0; i < 9; i++) expect((await send(batch(i))).status).toBe(200);
    await sim.advance(3600); // the last batch 1 hour later
    expect((await send(batch(9, 19))).status).toBe(200); // 199 used
    const over = await send(batch(10, 2));
    expect(over.status).toBe(409);
    expect(over.json.error.message).toMatch(/200 recipients/);
    expect((await send(batch(11, 1))).status).toBe(200); // exactly 200
    expect((await send(batch(12, 1))).status).toBe(409);
    await sim.advance(23 * 3600 - 1); // the first 180 are 24h - 1s old
    expect((await send(batch(13, 1))).status).toBe(409);
    await sim.advance(1); // now they have rolled out
    expect((await send(batch(14, 20))).status).toBe(200);
  });
});

describe('billing: 0.01 USD per recipient sent to, from the wallet', () => {
  it('charges the wallet exactly', async () => {
    await send({ ...base, to: ['a@example.com', 'b@example.com', 'c@example.com'] });
    expect(await wallet()).toBe(49.97);
  });
  it('403 when the wallet cannot cover it, and nothing is sent', async () => {
    await sim.api('PATCH', '/_sim/workspace', { body: { wallet_usd: 0.02 } });
    const r = await send({ ...base, to: ['a@example.com', 'b@example.com', 'c@example.com'] });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('insufficient_funds');
    expect(await wallet()).toBe(0.02);
    expect((await sim.api('GET', '/v1/emails?email=a@example.com')).json.data).toEqual([]);
    expect((await send({ ...base, to: ['a@example.com', 'b@example.com'] })).status).toBe(200);
    expect(await wallet()).toBe(0);
  });
  it('auto-recharge tops the wallet up instead of refusing', async () => {
    await sim.api('PATCH', '/_sim/workspace', {
      body: { wallet_usd: 0, auto_recharge: { enabled: true, amount_usd: 10, threshold_usd: 1 } },
    });
    expect((await send(base)).status).toBe(200);
    expect(await wallet()).toBe(9.99);
  });
});

describe('rate limit', () => {
  it('over the simulated per-minute limit → 429 with Retry-After; a minute later it passes', async () => {
    await sim.api('PATCH', '/_sim/workspace', { body: { rate_limits: { quick_emails_per_minute: 2 } } });
    expect((await send(base)).status).toBe(200);
    await sim.advance(10);
    expect((await send(base)).status).toBe(200);
    const r = await send(base);
    expect(r.status).toBe(429);
    expect(r.json.error.code).toBe('rate_limited');
    expect(r.headers.get('retry-after')).toBe('50');
    await sim.advance(50);
    expect((await send(base)).status).toBe(200);
  });
});

describe('email history', () => {
  it('every sent email is in email history with source quick', async () => {
    const g = await contact('Grace Hopper', 'grace@navy.example');
    const sent = (await send({ ...base, to: ['Grace Hopper'], subject: 'Hi Grace' })).json.data;
    const byContact = (await sim.api('GET', `/v1/emails?contact_id=${g.id}`)).json.data;
    expect(byContact).toHaveLength(1);
    expect(byContact[0]).toMatchObject({
      source: 'quick',
      direction: 'outbound',
      to: 'grace@navy.example',
      subject: 'Hi Grace',
      quick_email_id: sent.id,
      contact_id: g.id,
      created_at: T0,
    });
    const viaHistory = (await sim.api('GET', '/v1/history/emails?email=grace@navy.example')).json.data;
    expect(viaHistory).toEqual(byContact);
  });
});
