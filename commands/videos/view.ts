// What the videos verbs share: how a video, a quote and posts look; following a video through its
// pipeline (--wait); the price question on a terminal; fetching a ready video's media.
import { Option, type Command } from 'commander';
import type { Context } from '../../src/context.js';
import { CliError, EXIT, usage } from '../../src/errors.js';
import { canAsk, forStderr } from '../../src/io.js';
import { ALWAYS, bold, type Cell, col, dim, fields, idCol, nested, textCol } from '../../src/output.js';
import { price, usdAmount } from '../../src/money.js';
import { followRead } from '../../src/poll.js';
import type { PostOut, VideoOut, VideoQuoteOut } from '../../simulator/videos/records.js';

// the records' types come from the API's own schemas (type-only: nothing of them is loaded)
export type Video = VideoOut;
export type Post = PostOut;
export type Quote = VideoQuoteOut;

export const videoPath = (id: string) => `/v1/videos/${encodeURIComponent(id)}`;
export const priceText = (v: { price_usd: string; estimated: boolean }) =>
  `${v.price_usd} USD${v.estimated ? ' (estimated)' : ''}`;

function billedText(v: Video): string | null {
  if (!v.paid_from) return null;
  return `${price(v.billed_cents)} (${price(v.paid_from.credits_cents)} from video credits, ${price(v.paid_from.wallet_cents)} from the wallet)`;
}

/** A video list's columns (`videos list`, `schedules videos`). */
export const VIDEO_COLUMNS = [
  idCol(),
  col('status', 7),
  col('template', 4),
  col('seconds', 3),
  col('price', 6),
  col('created', 5),
];

export const POST_HEADERS = [
  idCol(),
  col('platform', 7),
  col('status', 6),
  col('scheduled for', 4),
  col('published', 5),
  col('permalink', 3),
  textCol('error', 2),
];
export const postRow = (p: Post): Cell[] => [
  p.id,
  p.platform,
  p.status,
  p.scheduled_for,
  p.published_at,
  p.permalink,
  p.error,
];

/** One video, as `vmv videos get` shows it: its fields, the script, then its posts (one `post` line each when piped). */
export function printVideo(ctx: Context, v: Video): void {
  const { io } = ctx;
  const pairs: [string, Cell][] = [
    ['id', v.id],
    ['status', v.status],
    ['template', v.template],
    ['preset', v.preset],
    ['format', v.format],
    ['seconds', v.seconds],
    ['price', priceText(v)],
    ['billed', billedText(v)],
    ['review', v.script_review],
    ['max price', v.max_price_cents === null ? null : price(v.max_price_cents)],
    ['error', v.error],
    ['failed stage', v.failed_stage],
    ['video', v.video_url],
    ['thumbnail', v.thumbnail_url],
    ['caption', v.caption],
    ['hashtags', v.hashtags.join(' ')],
    ['music', v.music ? `${v.music.title} (${v.music.track_id})` : null],
    ['created', v.created_at],
    ['ready', v.ready_at],
  ];
  // piped, the script is one value like any other; a terminal shows it as written, below the fields
  if (!io.stdoutTTY) pairs.push(['script', v.script]);
  fields(io, pairs);
  if (io.stdoutTTY && v.script)
    io.out(
      `\n${bold(io, 'Script')}\n${v.script
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n')}\n`,
    );
  if (v.posts.length > 0) nested(io, 'post', POST_HEADERS, v.posts.map(postRow));
}

/**
 * The embedded simulator signs its media links for http://127.0.0.1:4010, where nothing listens
 * unless `vmv sim serve` runs on the same world: said on stderr under a video that has links, with
 * the command that saves the file instead.
 */
export function linksNote(ctx: Context, v: Video): void {
  if (ctx.json || !v.video_url || ctx.target().kind !== 'embedded') return;
  const { origin, port } = new URL(v.video_url);
  const serve = `vmv sim serve${port && port !== '4010' ? ` --port ${port}` : ''}`;
  ctx.io.err(
    dim(
      forStderr(ctx.io),
      `note: nothing listens at ${origin} until \`${serve}\` runs (in another shell, on this world); or save the video: vmv videos download ${v.id} -o video.mp4`,
    ) + '\n',
  );
}

/** A quote: its total and length, then one `item` line per part of the price. */
export function printQuote(ctx: Context, q: Quote): void {
  fields(ctx.io, [
    ['template', q.template],
    ['preset', q.preset],
    ['seconds', q.seconds],
    ['total', `${q.price_usd} USD`],
    ['price', q.estimated ? 'estimated (exact once the script is written)' : 'exact'],
  ]);
  nested(
    ctx.io,
    'item',
    [textCol('item', 5), col('usd', ALWAYS)],
    q.line_items.map((i) => [i.label, usdAmount(i.cents)]),
  );
}

/**
 * Before something that charges: on a terminal, shows the price and asks (y to go ahead; anything
 * else declines, exit 7). --yes skips the question; without a terminal (or with stdout captured:
 * canAsk) there is none.
 */
export async function confirmCharge(
  ctx: Context,
  yes: boolean | undefined,
  question: string,
  declined: string,
  stdinUsed = false,
): Promise<void> {
  if (yes || !canAsk(ctx.io)) return;
  if (stdinUsed)
    throw usage(
      `${question.replace(/\?.*$/, '?')} Standard input was read for the input (-), so it cannot answer: add --yes to go ahead.`,
    );
  const [{ ask }, { extendDeadline }] = await Promise.all([import('../../src/prompt.js'), import('../../src/wait.js')]);
  const asked = Date.now();
  const answer = await ask(ctx.io, `${question} [y/N] `);
  // a person answering is not the job: --timeout counts from here
  await extendDeadline(ctx, Date.now() - asked);
  if (!/^y(es)?$/i.test(answer.trim())) throw new CliError(declined, EXIT.declined);
}

/** Before anything is sent: a file --output will write must be writable (its folder exists and lets us). */
export async function checkWritable(flag: string, file: string | undefined): Promise<void> {
  if (file === undefined || file === '-') return;
  const { access, stat, constants } = await import('node:fs/promises');
  const { dirname } = await import('node:path');
  try {
    const st = await stat(file).catch(() => null);
    if (st?.isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
    await access(st ? file : dirname(file), constants.W_OK);
  } catch (e) {
    throw usage(`${flag} ${file} cannot be written (${unwritable(e as NodeJS.ErrnoException)}).`);
  }
}

/** Why a file cannot be written, in a few words: the usual two plainly, any other by its code (or its message). */
function unwritable(e: NodeJS.ErrnoException): string {
  if (e.code === 'ENOENT') return 'no such folder';
  if (e.code === 'EISDIR') return 'it is a folder';
  return e.code ?? e.message;
}

/** Where a video's pipeline stops for --wait: made, failed, or waiting for its script to be approved. */
const ENDS = new Set(['ready', 'failed', 'script_review']);

/** 95 → "1m35s", on the simulator's clock or the wall's. */
export function span(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${sec || (!h && !m) ? `${sec}s` : ''}`;
}

/**
 * Follows a video until it is ready, failed or in script_review: on a terminal a live line (stage,
 * time since creation on the service's clock, price); piped, a line on stderr per stage (when it began, on the service's clock,
 * from creation). Prints the video at the end (with --json, the record as read); --output saves
 * the MP4 once ready. Exit 5 when it failed; a video waiting for approval ends the wait with 0.
 */
export async function followVideo(ctx: Context, id: string, o: { output?: string } = {}): Promise<Video> {
  // time in the pipeline on the service's clock (status_changed_at from created_at): with --advance the
  // wall clock barely moves while the simulator's runs through the stages, and 0s said nothing
  const sinceCreated = (b: { data: Video }) => Date.parse(b.data.status_changed_at) - Date.parse(b.data.created_at);
  const { data: v } = await followRead<{ data: Video }>(ctx, videoPath(id), {
    done: (b) => ENDS.has(b.data.status),
    live: (b) => [`video ${b.data.id}: ${b.data.status} · +${span(sinceCreated(b))} · ${priceText(b.data)}`],
    notes: (b) => `video ${b.data.id}: ${b.data.status} at +${span(sinceCreated(b))}, ${priceText(b.data)}`,
    final: (b) => printVideo(ctx, b.data),
  });
  if (ctx.io.stdoutTTY && !ctx.json) {
    ctx.io.out('\n'); // below the live line, as `get` shows it
    printVideo(ctx, v);
  }
  if (v.status === 'failed')
    throw new CliError(
      `Video ${v.id} failed${v.failed_stage ? ` while ${v.failed_stage}` : ''}: ${v.error}`,
      EXIT.failed,
      `Resume it from there: vmv videos retry ${v.id} --wait`,
      { id: v.id },
    );
  if (v.status === 'script_review') {
    if (!ctx.json) {
      const why = v.error ?? `its script is written and waits for your approval (${priceText(v)})`;
      const unsaved = o.output ? ` Nothing is rendered yet, so nothing was saved to ${o.output}.` : '';
      ctx.io.err(
        `Video ${v.id} is in script_review: ${why}${unsaved}\nRead the script: vmv videos get ${v.id}; render it: vmv videos approve ${v.id} --wait\n`,
      );
    }
    return v;
  }
  if (o.output) await saveMedia(ctx, v, 'video', o.output);
  else linksNote(ctx, v);
  return v;
}

/** What to do about a video that has no media yet: resume it, approve its script, or wait for it. */
function notReadyHint(v: Video): string {
  if (v.status === 'failed') return `Resume it: vmv videos retry ${v.id} --wait`;
  if (v.status === 'script_review') return `It waits for approval: vmv videos approve ${v.id} --wait`;
  return `Wait for it: vmv videos get ${v.id} --wait`;
}

/** The bytes of a ready video's MP4 or thumbnail, through the command's own client (embedded or base URL). */
export async function fetchMedia(
  ctx: Context,
  v: Video,
  which: 'video' | 'thumbnail',
): Promise<{ bytes: Buffer; type: string }> {
  const link = which === 'video' ? v.video_url : v.thumbnail_url;
  if (!link)
    throw new CliError(
      `Video ${v.id} is ${v.status.replace('_', ' ')}, not ready: it has no ${which} yet.`,
      EXIT.api,
      notReadyHint(v),
    );
  // the link's path and signature, asked of the target the command talks to: the embedded
  // simulator answers in-process, a service at its base URL (whatever host the link names)
  const u = new URL(link);
  const at = u.pathname.indexOf('/v1/');
  const res = await ctx.call('GET', (at >= 0 ? u.pathname.slice(at) : u.pathname) + u.search);
  return { bytes: res.body, type: res.headers['content-type'] ?? (which === 'video' ? 'video/mp4' : 'image/png') };
}

/** Writes a ready video's media to a file, or to stdout for `-`. */
export async function saveMedia(ctx: Context, v: Video, which: 'video' | 'thumbnail', file: string): Promise<void> {
  const { bytes, type } = await fetchMedia(ctx, v, which);
  if (file === '-') return ctx.io.out(bytes);
  const { writeFile } = await import('node:fs/promises');
  try {
    await writeFile(file, bytes);
  } catch (e) {
    throw new CliError(
      `Video ${v.id} is ready, but ${file} could not be written: ${(e as Error).message}`,
      EXIT.api,
      `Save it again: vmv videos download ${v.id} -o FILE`,
      { id: v.id },
    );
  }
  if (!ctx.json) ctx.io.err(dim(forStderr(ctx.io), `Saved ${bytes.length} bytes of ${type} to ${file}`) + '\n');
}

/** --wait and --output FILE (which implies --wait), on the verbs that set a video going: create, approve, retry. */
export function withWait(cmd: Command): Command {
  return cmd
    .option(
      '--wait',
      'follow the video until it is ready (exit 0), failed (exit 5) or waiting for script approval (exit 0, said on stderr)',
    )
    .addOption(
      new Option('-o, --output <file>', 'once ready, save the MP4 to this file (implies --wait)')
        .argParser((v: string) => {
          if (v === '-')
            throw usage(
              "--output takes a file here (the video's record goes to stdout); for the MP4 on stdout: vmv videos download ID -o -",
            );
          return v;
        })
        .implies({ wait: true }),
    );
}
