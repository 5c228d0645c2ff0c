// vmv numbers search: GET /v1/phone-numbers/search
import type { Command } from 'commander';
import { action, areaCodeArg, choiceArg, withExamples, intArg, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import { ALWAYS, col, table, textCol } from '../../src/output.js';

interface Options {
  country?: string;
  areaCode?: string;
  type?: string;
  limit?: number;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('search')
      .description('Numbers the carrier has available (up to 50)')
      .option('--country <code>', '2-letter country code (default US)', (v: string) => {
        if (!/^[A-Za-z]{2}$/.test(v)) throw usage(`--country takes a 2-letter country code such as US; got "${v}".`);
        return v.toUpperCase();
      })
      .option('--area-code <code>', '3-digit area code', areaCodeArg('--area-code'))
      .option(
        '--type <type>',
        'local (default), tollFree, mobile or national',
        choiceArg('--type', ['local', 'tollFree', 'mobile', 'national']),
      )
      .option('--limit <n>', 'how many (1-50, default 20)', intArg('--limit', 1, 50))
      .action(action(shell, run)),
    'vmv numbers search --area-code 415 --limit 5',
    'vmv numbers search --type tollFree',
  );
}

export async function run(ctx: Context, o: Options): Promise<void> {
  const res = await ctx.call('GET', '/v1/phone-numbers/search', {
    query: { country: o.country, area_code: o.areaCode, type: o.type, limit: o.limit },
  });
  ctx.emit(res, (b: any) =>
    table(
      ctx.io,
      [col('number', ALWAYS), textCol('locality', 4), col('region', 5), col('features', 3)],
      b.data.map((n: any) => [n.phone_number, n.locality, n.region, n.features.join(',')]),
    ),
  );
}
