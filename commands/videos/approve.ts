// vmv videos approve ID: POST /v1/videos/{id}/approve (the written script, edited or not; charged now)
import type { Command } from 'commander';
import { action, withExamples, idArg, intArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { canAsk, forStderr } from '../../src/io.js';
import { dim } from '../../src/output.js';
import { usage } from '../../src/errors.js';
import { overlay, readJsonObject, scriptOf } from './recipe.js';
import { price } from '../../src/money.js';
import { checkWritable, confirmCharge, followVideo, videoPath, withWait, type Video } from './view.js';

interface Options {
  script?: string;
  scriptFile?: string;
  file?: string;
  maxPriceCents?: number;
  yes?: boolean;
  wait?: boolean;
  output?: string;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withWait(
      parent
        .command('approve')
        .argument('<id>', 'video id', idArg('video'))
        .description(
          "Approve a video's written script, as written or edited, and render it (charged now: plan video credits first, then the wallet)",
        )
        .option('--script <text>', 'the script as edited (replaces it; templates spoken from a script)')
        .option('--script-file <file>', 'read the edited script from a file (- for standard input)')
        .option(
          '--file <file>',
          'the edits as JSON (- for standard input): {"script"}, or {"scenes"} (freeform_ai), {"slides"} (slideshow), {"interview"}',
        )
        .option(
          '--max-price-cents <n>',
          'refuse (nothing charged) if the price, recomputed from the edits, is above this',
          intArg('--max-price-cents', 0, 10_000_000),
        )
        .option(
          '-y, --yes',
          'do not ask to confirm the price (asked only when stdin, stdout and stderr are a terminal)',
        ),
    ).action(action(shell, run)),
    'ID=$(vmv videos create --template remotion --text "Three tips for a better espresso at home." --review manual)',
    'vmv sim advance 5m',
    'vmv videos get "$ID"',
    'vmv videos approve "$ID" --wait',
    'vmv videos approve "$ID" --script-file edited.txt --max-price-cents 300 --yes',
  );
}

export async function run(ctx: Context, o: Options, [id]: string[]): Promise<void> {
  await checkWritable('--output', o.output);
  if (o.scriptFile === '-' && o.file === '-') throw usage('--file and --script-file cannot both read standard input.');
  const file = o.file === undefined ? {} : await readJsonObject(ctx, '--file', o.file);
  const body = overlay(file, { script: await scriptOf(ctx, o), max_price_cents: o.maxPriceCents });
  if (!o.yes && canAsk(ctx.io)) {
    const v = (await ctx.call('GET', videoPath(id))).json<{ data: Video }>().data;
    // only a video waiting for approval is charged by it (the service answers anything else with 409)
    if (v.status === 'script_review') {
      const edited = ['script', 'scenes', 'slides', 'interview'].some((k) => body[k] !== undefined);
      const cap =
        o.maxPriceCents !== undefined
          ? `refused, nothing charged, if above ${price(o.maxPriceCents)}`
          : 'cap it with --max-price-cents';
      await confirmCharge(
        ctx,
        o.yes,
        edited
          ? `Approve video ${id} with your edits and render it? It is charged now at the price the service recomputes from the edits (${v.price_usd} USD as written; ${cap}), from plan video credits first, then the wallet.`
          : `Approve video ${id} and render it for ${v.price_usd} USD? It is charged now: plan video credits first, then the wallet.`,
        'Not approved.',
        o.file === '-' || o.scriptFile === '-',
      );
    }
  }
  const res = await ctx.call('POST', `${videoPath(id)}/approve`, { body });
  if (o.wait) {
    await followVideo(ctx, id, { output: o.output });
    return;
  }
  ctx.emit(res, ({ data: v }: { data: Video }) =>
    ctx.io.err(
      dim(
        forStderr(ctx.io),
        `Approved video ${v.id}: ${v.status}, charged ${price(v.billed_cents)}. Follow it: vmv videos get ${v.id} --wait`,
      ) + '\n',
    ),
  );
}
