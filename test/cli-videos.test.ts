// `vmv videos`, `vmv posts`, `vmv social` and `vmv sim social` on both targets (issue 10, CLI part):
// quoting, making a video on a manual clock (--wait --advance, --output), review and approval,
// retry after a failure, downloads through the command's own client, posts, and the local checks.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bufferIO } from '../src/io.js';
import { main } from '../src/main.js';
import { imageSize, inspectMp4 } from './media-inspect.js';
import { BIN, childEnv, T0, tempDir, useTargets, type CliResult } from './helpers.js';
import { requires } from './skips.js';

const { targets, both } = useTargets({ resetEach: true });
const NAMES = ['embedded', 'remote'] as const;

const ABOUT = 'Our espresso bar opens Monday on Main Street. Come try the new single-origin beans.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Runs a command on both targets and checks they print the same, the media links aside: a link
 * names the host it was asked through (the embedded simulator's default address, or the server's
 * port) and is signed with each store's own secret.
 */
async function same(args: string[], o: { tty?: boolean; stdin?: string } = {}): Promise<CliResult> {
  const links = (s: string) =>
    s.replace(/http:\/\/127\.0\.0\.1:\d+(\/v1\/media\/videos\/[^?\s]+)\?sig=[\w-]+/g, 'LINK$1');
  const e = await targets.embedded.run(args, o);
  const r = await targets.remote.run(args, o);
  // the embedded simulator's note on its links (nothing listens there without sim serve) is its own: tested apart
  const note = /^note: nothing listens at http:\/\/127\.0\.0\.1:4010 until .*\n/m;
  const shown = (x: CliResult) => ({
    code: x.code,
    stdout: links(x.stdout),
    stderr: links(x.stderr).replace(note, ''),
  });
  expect(shown(e), `embedded vs remote: vmv ${args.join(' ')}`).toEqual(shown(r));
  return e;
}

/** key<TAB>value lines of a piped single record. */
const record = (stdout: string) =>
  Object.fromEntries(
    stdout
      .split('\n')
      .filter((l) => l && !/^(post|item)\t/.test(l))
      .map((l) => l.split('\t') as [string, string]),
  );

/** A video made to the end on the manual clock; its id. */
async function readyVideo(extra: string[] = []): Promise<string> {
  const r = await same([
    'videos',
    'create',
    '--template',
    'slideshow',
    '--text',
    ABOUT,
    '--wait',
    '--advance',
    ...extra,
  ]);
  expect(r.code, r.stderr).toBe(0);
  return record(r.stdout).id;
}

describe('videos quote', () => {
  it('prints the total and one item line per part of the price; --json the body as returned', async () => {
    const q = await both(['videos', 'quote', '--template', 'talking_avatar', '--text', ABOUT]);
    expect(q.code).toBe(0);
    expect(q.stderr).toBe('');
    expect(q.stdout).toBe(
      [
        'template\ttalking_avatar',
        'preset\tsite-capture',
        'seconds\t30',
        'total\t3.70 USD',
        'price\testimated (exact once the script is written)',
        'item\tTemplate talking_avatar (site-capture)\t1.50',
        'item\tLength: 30 s at 4¢ a second\t1.20',
        'item\tNarration: 75 words at 1¢ per 2 words\t0.38',
        'item\tService markup (20% of the provider cost)\t0.62',
        '',
      ].join('\n'),
    );
    const exact = await both([
      'videos',
      'quote',
      '--template',
      'phone_mockup',
      '--url',
      'https://acme.example.com/app',
      '--script',
      'Book a table in two taps.',
      '--json',
    ]);
    expect(exact.json.data).toMatchObject({ estimated: false, template: 'phone_mockup', preset: 'hand' });
    expect(exact.json.data.line_items.reduce((a: number, i: { cents: number }) => a + i.cents, 0)).toBe(
      exact.json.data.price_cents,
    );
    // a quote makes nothing
    expect((await both(['videos', 'list'])).stdout).toBe('');
  });
});

describe('videos create', () => {
  it('prints the new id alone; get shows it queued; list has it', async () => {
    const r = await both([
      'videos',
      'create',
      '--template',
      'talking_avatar',
      '--text',
      ABOUT,
      '--caption',
      'Opening Monday',
      '--hashtag',
      'coffee',
      '--music',
      'trk_upbeat_01',
    ]);
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    expect(id).toMatch(UUID);
    expect(r.stderr).toContain(
      `Video ${id} is queued (talking_avatar, 3.70 USD (estimated)). Follow it: vmv videos get ${id} --wait`,
    );
    const g = record((await both(['videos', 'get', id])).stdout);
    expect(g).toMatchObject({
      id,
      status: 'queued',
      template: 'talking_avatar',
      preset: 'site-capture',
      format: 'vertical',
      seconds: '30',
      price: '3.70 USD (estimated)',
      billed: '-',
      review: 'auto',
      video: '-',
      caption: 'Opening Monday',
      hashtags: 'coffee',
      music: 'Bright Side (trk_upbeat_01)',
      created: T0,
    });
    const l = await both(['videos', 'list']);
    expect(l.stdout).toBe(`${id}\tqueued\ttalking_avatar\t30\t3.70 USD (estimated)\t${T0}\n`);
  });

  it('--wait --advance follows the pipeline to ready: a progress line per stage on stderr, the video on stdout; --output saves a real MP4', async () => {
    for (const name of NAMES) {
      const file = join(tempDir(), 'video.mp4');
      // --output implies --wait
      const r = await targets[name].run([
        'videos',
        'create',
        '--template',
        'talking_avatar',
        '--text',
        ABOUT,
        '--format',
        'horizontal',
        '--advance',
        '--output',
        file,
      ]);
      expect(r.code, r.stderr).toBe(0);
      const v = record(r.stdout);
      expect(v).toMatchObject({ status: 'ready', format: 'horizontal', review: 'auto' });
      expect(v.video).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/media\/videos\/[0-9a-f-]{36}\/video\.mp4\?sig=/);
      expect(v.script).toContain('espresso bar opens Monday');
      expect(v.billed).toBe(`${v.price} (${v.price} from video credits, 0.00 USD from the wallet)`);
      const stages = r.stderr
        .split('\n')
        .filter((l) => l.startsWith(`video ${v.id}: `))
        .map((l) => l.split(': ')[1].split(' ')[0]);
      expect(stages).toEqual(['queued', 'researching', 'rendering', 'compositing', 'ready']);
      expect(r.stderr).toContain(`video ${v.id}: researching at +30s, 3.70 USD (estimated)\n`);
      expect(r.stderr).toMatch(new RegExp(`video ${v.id}: ready at \\+\\d+m\\d*s?, ${v.price}\\n`));
      expect(r.stderr).toContain(`Saved ${readFileSync(file).length} bytes of video/mp4 to ${file}\n`);
      const mp4 = inspectMp4(readFileSync(file));
      expect(mp4).toMatchObject({ majorBrand: 'isom', codec: 'avc1', width: 640, height: 360 });
      expect(mp4.compatibleBrands).toContain('avc1');
    }
  });

  it('--wait --advance --json prints the record as read; piped progress goes nowhere near stdout', async () => {
    const r = await same([
      'videos',
      'create',
      '--template',
      'slideshow',
      '--text',
      ABOUT,
      '--wait',
      '--advance',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(''); // with --json, stderr holds only an error's JSON
    expect(r.json.data).toMatchObject({ status: 'ready', template: 'slideshow', estimated: false });
  });

  it('on a terminal, --wait redraws one live line (stage, time since creation on the simulator clock, price), then shows the video', async () => {
    for (const name of NAMES) {
      await targets[name].reset();
      const r = await targets[name].run(
        ['videos', 'create', '--template', 'slideshow', '--text', ABOUT, '--wait', '--advance', '--yes'],
        { tty: true },
      );
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.split(/\n|\u001b\[1A\u001b\[0J/).filter(Boolean);
      const live = lines.filter((l) => /^video [0-9a-f-]{36}: /.test(l));
      expect(live.map((l) => l.split(' · ')[0].split(': ')[1])).toEqual([
        'queued',
        'researching',
        'rendering',
        'compositing',
        'ready',
      ]);
      expect(live[0]).toMatch(/^video [0-9a-f-]{36}: queued · \+0s · 0\.72 USD \(estimated\)$/);
      expect(r.stdout).toMatch(/\nstatus +ready\n/);
      expect(r.stdout).toMatch(/\nScript\n  \S/);
      // nothing on stderr but, on the embedded target, where its links are served
      expect(r.stderr).toEqual(name === 'embedded' ? expect.stringMatching(/^note: nothing listens at [^\n]+\n$/) : '');
    }
  });

  it('--file - reads the body from stdin; flags given as well override its fields', async () => {
    const spec = JSON.stringify({
      template: 'slideshow',
      source_text: ABOUT,
      format: 'vertical',
      caption: 'From the file',
      target_duration_seconds: 20,
    });
    const r = await both(['videos', 'create', '--file', '-', '--format', 'horizontal', '--json'], { stdin: spec });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.data).toMatchObject({
      template: 'slideshow',
      format: 'horizontal',
      caption: 'From the file',
      target_duration_seconds: 20,
    });
    const q = await both(['videos', 'quote', '--file', '-'], {
      stdin: JSON.stringify({ template: 'remotion', source_url: 'https://acme.example.com' }),
    });
    expect(record(q.stdout)).toMatchObject({ template: 'remotion', preset: 'diagram' });
    const bad = await both(['videos', 'create', '--file', '-'], { stdin: '{"template": ' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--file is not valid JSON');
    const script = await both(
      ['videos', 'create', '--template', 'meme_hook', '--text', ABOUT, '--script-file', '-', '--json'],
      { stdin: 'Wait for it. Our espresso bar opens Monday!\n' },
    );
    expect(script.json.data).toMatchObject({
      script: 'Wait for it. Our espresso bar opens Monday!',
      status: 'rendering',
      estimated: false,
    });
  });

  it('--timeout: exit 6, the id alone on stdout, how to follow it', async () => {
    // each target on its own: how many stage lines come before the deadline depends on the machine's load
    for (const target of [targets.embedded, targets.remote]) {
      const r = await target.run([
        'videos',
        'create',
        '--template',
        'slideshow',
        '--text',
        ABOUT,
        '--wait',
        '--timeout',
        '0.1s',
      ]);
      expect(r.code).toBe(6);
      const id = r.stdout.trim();
      expect(id).toMatch(UUID);
      expect(r.stderr).toContain(
        `Stopped waiting after 0.1s (--timeout); video ${id} continues.\nFollow it: vmv videos get ${id} --wait\n`,
      );
    }
  });
});

describe('review and approval', () => {
  it('--review manual: no charge at creation; --wait ends in script_review (exit 0, naming approve); approve --wait renders it', async () => {
    const r = await both([
      'videos',
      'create',
      '--template',
      'remotion',
      '--text',
      ABOUT,
      '--review',
      'manual',
      '--wait',
      '--advance',
    ]);
    expect(r.code).toBe(0);
    const v = record(r.stdout);
    expect(v).toMatchObject({ status: 'script_review', billed: '-', review: 'manual' });
    expect(v.script).toBeTruthy();
    expect(r.stderr).toContain(
      `Video ${v.id} is in script_review: its script is written and waits for your approval (${v.price})`,
    );
    expect(r.stderr).toContain(`render it: vmv videos approve ${v.id} --wait`);
    const before = (await both(['sim', 'workspace', 'show'])).stdout;
    expect(before).toContain('video credits 2000 cents');
    const a = await same(['videos', 'approve', v.id, '--wait', '--advance']);
    expect(a.code).toBe(0);
    expect(record(a.stdout)).toMatchObject({
      status: 'ready',
      billed: `${v.price} (${v.price} from video credits, 0.00 USD from the wallet)`,
    });
    const again = await both(['videos', 'approve', v.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      'Only a video in script_review can be approved; this one is ready. (conflict, HTTP 409)',
    );
  });

  it('approve with an edited script (--script-file); a price above --max-price-cents is refused and charges nothing', async () => {
    const id = (
      await both(['videos', 'create', '--template', 'talking_avatar', '--text', ABOUT, '--review', 'manual'])
    ).stdout.trim();
    expect(
      (await both(['videos', 'create', '--template', 'talking_avatar', '--text', ABOUT, '--review', 'manual'])).stderr,
    ).toContain('Once its script is written it waits for you: vmv videos approve');
    await both(['sim', 'advance', '5m']);
    expect(record((await both(['videos', 'get', id])).stdout).status).toBe('script_review');
    const capped = await both([
      'videos',
      'approve',
      id,
      '--script',
      'Short and sweet: espresso on Monday.',
      '--max-price-cents',
      '10',
    ]);
    expect(capped.code).toBe(1);
    expect(capped.stderr).toContain('--max-price-cents (max_price_cents): the price');
    expect(record((await both(['videos', 'get', id])).stdout)).toMatchObject({ status: 'script_review', billed: '-' });
    const ok = await both(['videos', 'approve', id, '--script-file', '-'], {
      stdin: 'Short and sweet: espresso on Monday.\n',
    });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe(''); // it changes the video without creating one
    expect(ok.stderr).toMatch(
      new RegExp(
        `Approved video ${id}: rendering, charged \\d+\\.\\d\\d USD\\. Follow it: vmv videos get ${id} --wait`,
      ),
    );
    expect(record((await both(['videos', 'get', id])).stdout).script).toBe('Short and sweet: espresso on Monday.');
  });
});

describe('retry', () => {
  it('a render that fails (#fail-render) ends --wait with exit 5 and the error; retry --wait resumes and reaches ready', async () => {
    const r = await both([
      'videos',
      'create',
      '--template',
      'slideshow',
      '--text',
      `${ABOUT} #fail-render`,
      '--wait',
      '--advance',
    ]);
    expect(r.code).toBe(5);
    const v = record(r.stdout);
    expect(v).toMatchObject({ status: 'failed', 'failed stage': 'rendering' });
    expect(r.stderr).toContain(
      `error: Video ${v.id} failed while rendering: Rendering failed: the render provider returned an error (simulated by #fail-render).\nResume it from there: vmv videos retry ${v.id} --wait\n`,
    );
    const j = await both(['videos', 'get', v.id, '--wait', '--advance', '--json']);
    expect(j.code).toBe(5);
    expect(JSON.parse(j.stderr).error).toMatchObject({ code: 'job_failed', id: v.id });
    const again = await same(['videos', 'retry', v.id, '--wait', '--advance']);
    expect(again.code).toBe(0);
    expect(record(again.stdout)).toMatchObject({ id: v.id, status: 'ready', error: '-' });
    expect(again.stderr).toContain(`video ${v.id}: rendering at +`);
    const notFailed = await same(['videos', 'retry', v.id]);
    expect(notFailed.code).toBe(1);
    expect(notFailed.stderr).toContain('(conflict, HTTP 409)');
  });
});

describe('delete, music, download', () => {
  it('delete asks on a terminal, needs --yes without one, then the video is gone', async () => {
    const id = (await both(['videos', 'create', '--template', 'slideshow', '--text', ABOUT])).stdout.trim();
    const refused = await both(['videos', 'delete', id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`To delete video ${id} without a terminal, pass --yes.`);
    expect((await both(['videos', 'delete', id], { tty: true, stdin: 'no\n' })).code).toBe(7);
    const d = await both(['videos', 'delete', id, '--yes']);
    expect(d).toMatchObject({ code: 0, stdout: '', stderr: `Deleted video ${id}\n` });
    const gone = await both(['videos', 'get', id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('(not_found, HTTP 404)');
  });

  it('music lists the built-in tracks', async () => {
    const m = await both(['videos', 'music', '--all']);
    const rows = m.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows).toHaveLength(8);
    expect(rows).toContainEqual(['trk_upbeat_01', 'Bright Side', 'upbeat', '120', '150', 'builtin']);
  });

  it('download -o writes the MP4, --thumbnail the PNG, -o - to stdout; refused on a terminal without -o; a video not ready has nothing to download', async () => {
    const id = await readyVideo();
    for (const name of NAMES) {
      const dir = tempDir();
      const r = await targets[name].run(['videos', 'download', id, '-o', join(dir, 'v.mp4')]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      expect(inspectMp4(readFileSync(join(dir, 'v.mp4')))).toMatchObject({ codec: 'avc1', width: 360, height: 640 });
      const t = await targets[name].run(['videos', 'download', id, '--thumbnail', '-o', join(dir, 't.png')]);
      expect(t.code, t.stderr).toBe(0);
      expect(imageSize(readFileSync(join(dir, 't.png')))).toMatchObject({ type: 'png', width: 360, height: 640 });
    }
    for (const name of NAMES) {
      // -o -: the bytes on stdout as they are (read here as bytes, not text)
      const io = await bufferIO();
      expect(
        await main(['videos', 'download', id, '-o', '-'], io, {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ...targets[name].env,
        }),
      ).toBe(0);
      expect(inspectMp4(io.stdoutBytes())).toMatchObject({ codec: 'avc1', width: 360, height: 640 });
      expect(io.stderr()).toBe('');
    }
    const tty = await same(['videos', 'download', id], { tty: true });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toContain('Refusing to write a video to a terminal');
    const queued = (await both(['videos', 'create', '--template', 'slideshow', '--text', ABOUT])).stdout.trim();
    const none = await both(['videos', 'download', queued, '-o', join(tempDir(), 'x.mp4')]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      `Video ${queued} is queued, not ready: it has no video yet.\nWait for it: vmv videos get ${queued} --wait`,
    );
  });
});

describe('posts and social accounts', () => {
  it("post --to tiktok now publishes within a minute; --at +1h is scheduled on the target's clock; posts lists them; posts cancel", async () => {
    const id = await readyVideo(['--caption', 'Opening Monday', '--hashtag', '#coffee']);
    const now = await both(['videos', 'post', id, '--to', 'tiktok']);
    expect(now.code, now.stderr).toBe(0);
    const first = now.stdout.trim();
    expect(first).toMatch(UUID);
    expect(now.stderr).toContain(`1 post (tiktok) publishes within a minute. See them: vmv videos posts ${id}`);
    const clock = (await both(['sim', 'clock', '--json'])).json.now as string;
    const later = await both([
      'videos',
      'post',
      id,
      '--to',
      'instagram',
      '--to',
      'youtube',
      '--at',
      '+1h',
      '--caption',
      'Tomorrow!',
    ]);
    expect(later.code, later.stderr).toBe(0);
    const [ig, yt] = later.stdout.trim().split('\n');
    expect(yt).toMatch(UUID);
    const at = new Date(Date.parse(clock) + 3600_000).toISOString();
    expect(later.stderr).toContain(`2 posts (instagram, youtube) publish at ${at}`);
    await both(['sim', 'advance', '1m']);
    const rows = (await both(['videos', 'posts', id])).stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    const byId = Object.fromEntries(rows.map((r) => [r[0], r]));
    expect(byId[first]).toEqual([
      first,
      'tiktok',
      'published',
      '-',
      expect.stringMatching(/^2026-/),
      expect.stringMatching(/^https:\/\/www\.tiktok\.com\/@acme-sandbox\/video\/\d{19}$/),
      '-',
    ]);
    expect(byId[ig]).toEqual([ig, 'instagram', 'scheduled', at, '-', '-', '-']);
    const c = await both(['posts', 'cancel', ig]);
    expect(c).toMatchObject({ code: 0, stdout: '', stderr: `Post ${ig} (instagram) is canceled\n` });
    const published = await both(['posts', 'cancel', first]);
    expect(published.code).toBe(1);
    expect(published.stderr).toContain('(conflict, HTTP 409)');
    // the video's record lists its posts too, one `post` line each
    const g = await same(['videos', 'get', id]);
    expect(g.stdout.split('\n').filter((l) => l.startsWith('post\t'))).toHaveLength(3);
    expect(record(g.stdout)).toMatchObject({ caption: 'Opening Monday', hashtags: '#coffee' });
  });

  it('a video not ready cannot be posted now (409) but can be scheduled', async () => {
    const id = (await both(['videos', 'create', '--template', 'slideshow', '--text', ABOUT])).stdout.trim();
    const r = await both(['videos', 'post', id, '--to', 'x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('(video_not_ready, HTTP 409)');
    const s = await both(['videos', 'post', id, '--to', 'x', '--at', '2026-01-06T12:00:00Z', '--json']);
    expect(s.json.data[0]).toMatchObject({
      platform: 'x',
      status: 'scheduled',
      scheduled_for: '2026-01-06T12:00:00.000Z',
    });
    const past = await both(['videos', 'post', id, '--to', 'x', '--at', '2026-01-01T00:00:00Z']);
    expect(past.code).toBe(1);
    expect(past.stderr).toContain('--at (scheduled_for): must be in the future');
  });

  it('social list; sim social add makes --to tiktok ambiguous (exit 2, listing them); sim social remove', async () => {
    const all = await both(['social', 'list']);
    expect(
      all.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split('\t')[1])
        .sort(),
    ).toEqual(['facebook', 'instagram', 'linkedin', 'tiktok', 'x', 'youtube']);
    const tiktok = (await both(['social', 'list', '--platform', 'TikTok'])).stdout.trim().split('\t');
    expect(tiktok.slice(1, 4)).toEqual(['tiktok', '@acme-sandbox', 'Acme Sandbox on TikTok']);
    const add = await both(['sim', 'social', 'add', '--platform', 'tiktok', '--name', 'Acme Coffee']);
    expect(add.code).toBe(0);
    const second = add.stdout.trim();
    expect(second).toMatch(UUID);
    expect(add.stderr).toBe('Connected tiktok account @acme-coffee (Acme Coffee)\n');
    const id = await readyVideo();
    const ambiguous = await both(['videos', 'post', id, '--to', 'tiktok']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('--to tiktok: 2 TikTok accounts are connected; pass the id of one:');
    expect(ambiguous.stderr).toContain(`  ${second}  @acme-coffee  Acme Coffee`);
    const byId = await both(['videos', 'post', id, '--to', second, '--at', '+1d']);
    expect(byId.code).toBe(0);
    const post = byId.stdout.trim();
    expect((await both(['sim', 'social', 'remove', second])).code).toBe(2); // no terminal, no --yes
    const removed = await both(['sim', 'social', 'remove', second, '--yes']);
    expect(removed).toMatchObject({ code: 0, stdout: '', stderr: `Removed social connection ${second}\n` });
    const rows = (await both(['videos', 'posts', id])).stdout.trim().split('\t');
    expect(rows.slice(0, 3)).toEqual([post, 'tiktok', 'failed']);
    expect(rows[6]).toBe('The TikTok account @acme-coffee was disconnected.');
    // none left on a platform: exit 2, and where to look
    const tiktokId = tiktok[0];
    await both(['sim', 'social', 'remove', tiktokId, '--yes']);
    const none = await both(['videos', 'post', id, '--to', 'tiktok']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--to tiktok: no TikTok account is connected to this workspace.');
  });
});

describe('the plan gate', () => {
  it('a plan without Content: every videos command is refused (403 plan_not_included, exit 1)', async () => {
    expect((await both(['sim', 'workspace', 'set', '--content', 'off'])).code).toBe(0);
    for (const args of [
      ['videos', 'list'],
      ['videos', 'quote', '--template', 'slideshow', '--text', ABOUT],
      ['social', 'list'],
    ]) {
      const r = await both(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toContain(
        "The workspace's plan does not include Content (videos). (plan_not_included, HTTP 403)",
      );
    }
    const j = await both(['videos', 'list', '--json']);
    expect(JSON.parse(j.stderr).error.code).toBe('plan_not_included');
  });
});

describe('the price question on a terminal', () => {
  it('create with an own script (charged at once) quotes and asks; n declines (exit 7, nothing made), y goes ahead; --yes skips', async () => {
    const args = [
      'videos',
      'create',
      '--template',
      'talking_avatar',
      '--text',
      ABOUT,
      '--script',
      'Our espresso bar opens Monday. Come say hi!',
    ];
    const no = await both(args, { tty: true, stdin: 'n\n' });
    expect(no.code).toBe(7);
    expect(no.stderr).toBe(
      'Make this 4 s talking_avatar video for 2.04 USD? It is charged now: plan video credits first, then the wallet. [y/N] error: Not created.\n',
    );
    expect((await both(['videos', 'list'])).stdout).toBe('');
    // the quote does not take the --idempotency-key meant for the creation
    const yes = await both([...args, '--idempotency-key', 'make-once'], { tty: true, stdin: 'y\n' });
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stdout.trim()).toMatch(UUID);
    const skip = await both([...args, '--yes'], { tty: true });
    expect(skip.code).toBe(0);
    expect(skip.stderr).not.toContain('[y/N]');
  });

  it('automatic review asks about the estimate; manual review and pipes never ask; approve asks the price', async () => {
    const auto = await both(
      ['videos', 'create', '--template', 'slideshow', '--text', ABOUT, '--max-price-cents', '500'],
      { tty: true, stdin: 'no\n' },
    );
    expect(auto.code).toBe(7);
    expect(auto.stderr).toContain(
      'Make this 30 s slideshow video for about 0.72 USD? The price is exact once the script is written and charged then (held for approval if above 5.00 USD)',
    );
    const manual = await both(['videos', 'create', '--template', 'slideshow', '--text', ABOUT, '--review', 'manual'], {
      tty: true,
    });
    expect(manual.code).toBe(0);
    expect(manual.stderr).not.toContain('[y/N]');
    const piped = await both(['videos', 'create', '--template', 'slideshow', '--text', ABOUT]);
    expect(piped.code).toBe(0);
    const id = manual.stdout.trim();
    await both(['sim', 'advance', '5m']);
    const price = (await both(['videos', 'get', id, '--json'])).json.data.price_usd;
    const no = await both(['videos', 'approve', id], { tty: true, stdin: '\n' });
    expect(no.code).toBe(7);
    expect(no.stderr).toBe(
      `Approve video ${id} and render it for ${price} USD? It is charged now: plan video credits first, then the wallet. [y/N] error: Not approved.\n`,
    );
    const yes = await both(['videos', 'approve', id], { tty: true, stdin: 'yes\n' });
    expect(yes.code).toBe(0);
  });
});

describe('checked before any request (exit 2, naming the flag)', () => {
  it('enumerations, numbers, times and what a video needs', async () => {
    const cases: [string[], string][] = [
      [
        ['videos', 'create', '--template', 'tiktok_dance', '--text', 'x'],
        '--template takes one of talking_avatar, remotion',
      ],
      [
        ['videos', 'create', '--template', 'slideshow', '--text', 'x', '--format', 'square'],
        '--format takes one of vertical, horizontal',
      ],
      [
        ['videos', 'create', '--template', 'slideshow', '--text', 'x', '--duration', '2'],
        '--duration must be a number of seconds from 5 to 600',
      ],
      [
        ['videos', 'create', '--template', 'slideshow', '--text', 'x', '--review', 'later'],
        '--review takes one of auto, manual',
      ],
      [
        ['videos', 'quote', '--template', 'slideshow', '--text', 'x', '--max-price-cents', 'lots'],
        '--max-price-cents must be a whole number',
      ],
      [['videos', 'create', '--text', 'x'], '--template is required'],
      [['videos', 'quote', '--template', 'slideshow'], 'Say what the video is about: --url URL or --text TEXT'],
      [
        ['videos', 'create', '--template', 'talking_avatar', '--text', 'x', '--script', 'a', '--script-file', 'b.txt'],
        'one of --script or --script-file',
      ],
      [
        ['videos', 'create', '--template', 'slideshow', '--text', 'x', '--wait', '--output', '-'],
        '--output takes a file here',
      ],
      [['videos', 'list', '--status', 'done'], '--status takes one of queued, researching'],
      [
        ['videos', 'create', '--template', 'slideshow', '--text', 'x', '--avatar-layout', 'corner'],
        '--avatar-layout takes one of fullscreen, picture_in_picture',
      ],
      [
        ['videos', 'create', '--template', 'freeform_ai', '--text', 'x', '--video-model', 'dalle'],
        '--video-model takes one of veo-3',
      ],
      [
        ['videos', 'post', 'a1b2', '--to', 'myspace'],
        '--to takes a social connection id (vmv social list) or a platform',
      ],
      [['videos', 'post', 'a1b2', '--to', 'tiktok', '--at', '30m'], '--at takes an ISO 8601 time'],
      [
        ['videos', 'post', 'a1b2', '--to', 'tiktok', '--privacy', 'everyone'],
        '--privacy takes one of PUBLIC_TO_EVERYONE',
      ],
      [['videos', 'post', 'a1b2'], "required option '--to <account>' not specified"],
      [['social', 'list', '--platform', 'myspace'], '--platform takes one of tiktok'],
      [['sim', 'social', 'add', '--platform', 'orkut'], '--platform takes one of tiktok'],
      [['videos', 'get', 'x', '--advance'], '--advance applies to a wait: add --wait.'],
    ];
    for (const [args, message] of cases) {
      const r = await both(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toContain(message);
    }
    expect((await both(['videos', 'list', '--json'])).json.data).toEqual([]); // nothing was made
  });

  it('what only the service can check names the flag it came from (exit 1)', async () => {
    const r = await both([
      'videos',
      'create',
      '--template',
      'remotion',
      '--text',
      'x',
      '--script',
      'Hello there.',
      '--preset',
      'neon',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--script (script): remotion writes its own script');
    expect(r.stderr).toContain('--preset (preset): must be one of diagram, imessage, site-demo for remotion');
    const m = await both([
      'videos',
      'quote',
      '--template',
      'slideshow',
      '--url',
      'https://acme.example.com',
      '--music',
      'trk_nope',
    ]);
    expect(m.stderr).toContain('--music (music.track_id): is not a track of the music list');
    const d = await both(['videos', 'create', '--template', 'slideshow', '--text', 'x', '--image-url', 'ftp://x']);
    expect(d.stderr).toContain('(source_image_urls[0]): must be an http(s) URL');
  });
});

describe('review fixes: nothing is made or charged when the command cannot finish what it was asked', () => {
  it('an --output that cannot be written exits 2 before anything is sent', async () => {
    const r = await both([
      'videos',
      'create',
      '--template',
      'slideshow',
      '--text',
      ABOUT,
      '--advance',
      '-o',
      '/nonexistent-dir/x.mp4',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--output /nonexistent-dir/x.mp4 cannot be written (no such folder)');
    expect((await both(['videos', 'list'])).stdout).toBe('');
    expect((await both(['videos', 'download', 'a1b2', '-o', '/nonexistent-dir/x.mp4'])).code).toBe(2);
  });
  it('the price question cannot be answered once standard input was read for input: exit 2 asking for --yes, nothing made', async () => {
    const r = await both(['videos', 'create', '--template', 'talking_avatar', '--text', ABOUT, '--script-file', '-'], {
      tty: true,
      stdin: 'Come try our espresso.\n',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('add --yes to go ahead');
    expect((await both(['videos', 'list'])).stdout).toBe('');
    const ok = await both(
      ['videos', 'create', '--template', 'talking_avatar', '--text', ABOUT, '--script-file', '-', '--yes'],
      { tty: true, stdin: 'Come try our espresso.\n' },
    );
    expect(ok.code, ok.stderr).toBe(0);
  });
  it('errors name the flag the value came from: --script-file, or --file for a field of the whole body', async () => {
    const a = await both(['videos', 'quote', '--template', 'slideshow', '--text', 'x', '--script-file', '-'], {
      stdin: 'Hello there.',
    });
    expect(a.stderr).toContain('--script-file (script): slideshow writes its own script');
    const b = await both(['videos', 'quote', '--file', '-'], {
      stdin: JSON.stringify({ template: 'remotion', source_text: 'x', script: 'hi', target_duration_seconds: 1 }),
    });
    expect(b.code).toBe(1);
    expect(b.stderr).toContain('--file (target_duration_seconds): must be at least 5');
    const c = await both(['videos', 'quote', '--file', '-'], {
      stdin: JSON.stringify({ template: 'remotion', source_text: 'x', script: 'hi' }),
    });
    expect(c.stderr).toContain('--file (script): remotion writes its own script');
    expect(
      (
        await both(['videos', 'quote', '--file', '-', '--script-file', '-', '--template', 'slideshow', '--text', 'x'], {
          stdin: '{}',
        })
      ).stderr,
    ).toContain('cannot both read standard input');
  });
  it("approve asks only for a video waiting for approval (a ready one gets the service's 409, no question)", async () => {
    const id = await readyVideo();
    const r = await both(['videos', 'approve', id], { tty: true, stdin: '' });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('[y/N]');
    expect(r.stderr).toContain('Only a video in script_review can be approved');
  });
  it("a failed video's download points to retry", async () => {
    const r = await both([
      'videos',
      'create',
      '--template',
      'slideshow',
      '--text',
      `${ABOUT} #fail-render`,
      '--wait',
      '--advance',
    ]);
    expect(r.code).toBe(5);
    const id = r.stdout.match(/^id\t(\S+)$/m)![1];
    const d = await both(['videos', 'download', id, '-o', join(tempDir(), 'x.mp4')]);
    expect(d.code).toBe(1);
    expect(d.stderr).toContain(`vmv videos retry ${id} --wait`);
  });
});

describe("the embedded simulator's media links (issue 33 point 7)", () => {
  it('a ready video shown on the embedded target says where its links are served and how to save the file; not served, --json or --output: nothing', async () => {
    const id = await readyVideo();
    const e = await targets.embedded.run(['videos', 'get', id]);
    expect(record(e.stdout).video).toMatch(/^http:\/\/127\.0\.0\.1:4010\/v1\/media\/videos\//);
    expect(e.stderr).toBe(
      `note: nothing listens at http://127.0.0.1:4010 until \`vmv sim serve\` runs (in another shell, on this world); or save the video: vmv videos download ${id} -o video.mp4\n`,
    );
    // the command it names saves the file
    const file = join(tempDir(), 'video.mp4');
    expect((await targets.embedded.run(['videos', 'download', id, '-o', file])).code).toBe(0);
    expect(readFileSync(file).subarray(4, 8).toString()).toBe('ftyp');
    // a served simulator's links name the server itself: no note
    const r = await targets.remote.run(['videos', 'get', id]);
    expect(r.stderr).toBe('');
    expect((await targets.embedded.run(['videos', 'get', id, '--json'])).stderr).toBe('');
    // --wait to ready says it too, unless --output saved the file
    const make = ['videos', 'create', '--template', 'slideshow', '--text', ABOUT];
    const made = await targets.embedded.run([...make, '--wait', '--advance']);
    expect(made.stderr).toContain('note: nothing listens at http://127.0.0.1:4010');
    const saved = await targets.embedded.run([...make, '--advance', '--output', join(tempDir(), 'v.mp4')]);
    expect(saved.stderr).not.toContain('note: nothing listens');
    // a video not ready has no links: no note
    const queued = (await targets.embedded.run(make)).stdout.trim();
    expect((await targets.embedded.run(['videos', 'get', queued])).stderr).toBe('');
  });
});

describe('questions only when stdin, stdout and stderr are a terminal (issue 33 point 7: one rule)', () => {
  const hasScript = spawnSync('script', ['--version']).status === 0;
  requires(hasScript ? null : 'script (util-linux) is not installed: it gives the commands a pty');

  /** A bash script on a pty (util-linux `script`), `input` typed into it; what the terminal showed. */
  function onPty(bash: string, input: string): { code: number | null; shown: string } {
    const dir = tempDir();
    writeFileSync(join(dir, 'run.sh'), bash);
    const r = spawnSync('script', ['-qfec', 'bash run.sh', '/dev/null'], {
      env: childEnv(dir, { PATH: `${join(BIN, '..')}:${process.env.PATH}` }),
      cwd: dir,
      input,
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { code: r.status, shown: r.stdout.replace(/\r\n/g, '\n') };
  }

  it('captured by $(...), videos create asks nothing and prints the id; on the terminal it asks (n: exit 7); a delete captured needs --yes', () => {
    const create = `vmv videos create --template slideshow --text "${ABOUT}"`;
    const r = onPty(
      [
        `ID=$(${create}); echo "captured:[$ID]"`,
        `${create}; echo "asked:$?"`,
        `OUT=$(vmv videos delete "$ID"); echo "delete:$?"`,
        `vmv videos get "$ID" >/dev/null; echo "still there:$?"`,
      ].join('\n'),
      'n\n',
    );
    expect(r.code, r.shown).toBe(0);
    const [captured, asked] = r.shown.split(/^captured:.*$/m);
    expect(captured).not.toContain('[y/N]');
    expect(r.shown).toMatch(/^captured:\[[0-9a-f-]{36}\]$/m);
    // (the pty echoes what is typed where the terminal is when it is typed)
    expect(asked).toMatch(
      /Make this 30 s slideshow video for about 0\.72 USD\?.*\[y\/N\] (n\n)?error: Not created\.\n(n\n)?asked:7$/m,
    );
    expect(r.shown).toMatch(/To delete video \S+ without a terminal, pass --yes\.(.|\n)*^delete:2$/m);
    expect(r.shown).toMatch(/^still there:0$/m);
  });
});
