// vmv videos quote: POST /v1/videos/quote (free; makes nothing)
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { recipeBody, withRecipe, type RecipeOptions } from './recipe.js';
import { printQuote, type Quote } from './view.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withRecipe(
      parent
        .command('quote')
        .description('Price a video before making it: its line items and total (free; makes nothing)'),
    )
      .addHelpText(
        'after',
        '\nWith an own script the price is exact; without one it is estimated from --duration (exact once the script is written).',
      )
      .action(action(shell, run)),
    'vmv videos quote --template talking_avatar --text "Our espresso bar opens Monday on Main Street."',
    'vmv videos quote --template phone_mockup --url https://acme.example.com/app --script "Book a table in two taps."',
    'vmv videos quote --file video.json --json | jq .data.price_cents',
  );
}

export async function run(ctx: Context, o: RecipeOptions): Promise<void> {
  const res = await ctx.call('POST', '/v1/videos/quote', { body: await recipeBody(ctx, o) });
  ctx.emit(res, (b: { data: Quote }) => printQuote(ctx, b.data));
}
