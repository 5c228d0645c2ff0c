// vmv videos create: POST /v1/videos (charged once: at once with an own script, else when the
// written script is approved), and --wait / --output to follow it until it is made.
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { canAsk, forStderr } from '../../src/io.js';
import { dim } from '../../src/output.js';
import { TEMPLATE_INFO, TEMPLATES } from '../../simulator/vocabulary.js';
import { charges, recipeBody, withRecipe, type Body, type RecipeOptions } from './recipe.js';
import { price } from '../../src/money.js';
import { checkWritable, confirmCharge, followVideo, priceText, withWait, type Quote, type Video } from './view.js';

interface Options extends RecipeOptions {
  yes?: boolean;
  wait?: boolean;
  output?: string;
}

const TEMPLATE_LIST = TEMPLATES.map(
  (t) => `  ${t.padEnd(15)} ${TEMPLATE_INFO[t].what}; presets ${TEMPLATE_INFO[t].presets.join(', ')}`,
).join('\n');

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withWait(
      withRecipe(
        parent
          .command('create')
          .description(
            'Make a short social video from a template (charged once: plan video credits first, then the wallet)',
          ),
      ),
    )
      .option(
        '-y, --yes',
        'do not ask to confirm the price (asked only when stdin, stdout and stderr are a terminal, and the video will be charged)',
      )
      .addHelpText(
        'after',
        `
Costs: an own --script is charged at creation; without one the script is written from the sources and
charged when approved: automatically (--review auto, the default; held for approval if above
--max-price-cents) or by \`vmv videos approve\` (--review manual). \`vmv videos quote\` prices it first.
Prints the new video's id (with --wait, the video once it is made).

Templates (the first preset is the default):
${TEMPLATE_LIST}

Simulator: #fail-research, #fail-render or #fail-composite in --text fails that stage once (retry resumes).`,
      )
      .action(action(shell, run)),
    'vmv videos create --template talking_avatar --text "Our espresso bar opens Monday on Main Street." --wait --output espresso.mp4',
    'vmv videos create --template slideshow --url https://acme.example.com/menu --review manual --caption "New menu" --hashtag coffee',
    'ID=$(vmv videos create --template phone_mockup --url https://acme.example.com/app --script-file script.txt --yes)',
    'vmv videos create --file video.json --format horizontal --wait --advance',
  );
}

/** On a terminal, the price of what will be charged, and whether to go ahead. */
async function confirm(ctx: Context, body: Body, yes: boolean | undefined, stdinUsed: boolean): Promise<void> {
  if (yes || !canAsk(ctx.io) || !charges(body)) return;
  // the quote is not the command's write: it goes without the --idempotency-key meant for the creation
  const q = (await ctx.call('POST', '/v1/videos/quote', { body, idempotencyKey: undefined })).json<{ data: Quote }>()
    .data;
  const when =
    body.script !== undefined
      ? 'It is charged now'
      : `The price is exact once the script is written and charged then${body.max_price_cents !== undefined ? ` (held for approval if above ${price(Number(body.max_price_cents))})` : ''}`;
  await confirmCharge(
    ctx,
    yes,
    `Make this ${q.seconds} s ${q.template} video for ${q.estimated ? 'about ' : ''}${q.price_usd} USD? ${when}: plan video credits first, then the wallet.`,
    'Not created.',
    stdinUsed,
  );
}

export async function run(ctx: Context, o: Options): Promise<void> {
  await checkWritable('--output', o.output);
  const body = await recipeBody(ctx, o);
  await confirm(ctx, body, o.yes, o.file === '-' || o.scriptFile === '-');
  const res = await ctx.call('POST', '/v1/videos', { body });
  const v = res.json<{ data: Video }>().data;
  if (o.wait) {
    await followVideo(ctx, v.id, { output: o.output });
    return;
  }
  ctx.emit(res, () => {
    ctx.io.out(`${v.id}\n`);
    const next =
      v.script_review === 'manual' && v.script === null
        ? `Once its script is written it waits for you: vmv videos approve ${v.id}`
        : `Follow it: vmv videos get ${v.id} --wait`;
    ctx.io.err(dim(forStderr(ctx.io), `Video ${v.id} is ${v.status} (${v.template}, ${priceText(v)}). ${next}`) + '\n');
  });
}
