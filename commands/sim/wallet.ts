// vmv sim wallet: GET or PATCH /_sim/workspace (wallet and auto-recharge; a top-up pays what suspended AI numbers owe)
import type { Command } from 'commander';
import { action, withExamples, numberArg, onOff, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { fields, money } from '../../src/output.js';

interface Options {
  set?: number;
  autoRecharge?: boolean;
  rechargeAmount?: number;
  rechargeThreshold?: number;
  cardDeclined?: boolean;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('wallet')
      .description('Show the workspace wallet, or set its balance and auto-recharge')
      .option('--set <usd>', 'set the balance in USD', numberArg('--set', 0))
      .option('--auto-recharge <on|off>', 'top up automatically when low', onOff('--auto-recharge'))
      .option('--recharge-amount <usd>', 'amount of each top-up', numberArg('--recharge-amount', 0.01))
      .option(
        '--recharge-threshold <usd>',
        'top up when the balance falls below this',
        numberArg('--recharge-threshold', 0),
      )
      .option(
        '--card-declined <on|off>',
        'on: every top-up is declined, as if auto-recharge were off',
        onOff('--card-declined'),
      )
      .action(action(shell, run)),
    'vmv sim wallet --set 25',
    'vmv sim wallet --auto-recharge on --recharge-amount 20 --recharge-threshold 5',
    'vmv sim wallet --card-declined on',
  );
}

export async function run(ctx: Context, o: Options): Promise<void> {
  const ar =
    o.autoRecharge !== undefined ||
    o.rechargeAmount !== undefined ||
    o.rechargeThreshold !== undefined ||
    o.cardDeclined !== undefined
      ? {
          enabled: o.autoRecharge,
          amount_usd: o.rechargeAmount,
          threshold_usd: o.rechargeThreshold,
          card_declined: o.cardDeclined,
        }
      : undefined;
  const res =
    o.set !== undefined || ar
      ? await ctx.call('PATCH', '/_sim/workspace', { body: { wallet_usd: o.set, auto_recharge: ar } })
      : await ctx.call('GET', '/_sim/workspace');
  const w = res.json();
  // --json: the wallet (its balance and auto-recharge), not the whole workspace with its ledger
  if (ctx.json) ctx.io.out(`${JSON.stringify({ wallet_usd: w.wallet_usd, auto_recharge: w.auto_recharge })}\n`);
  else fields(ctx.io, [['balance', money(w.wallet_usd)], ...rechargeFields(w)]);
}

/** Auto-recharge and its card, shown whether auto-recharge is on or not (a declined card matters once it is turned on). */
export const rechargeFields = (w: any): [string, string][] => [
  [
    'auto-recharge',
    w.auto_recharge.enabled
      ? `on: ${money(w.auto_recharge.amount_usd)} when below ${money(w.auto_recharge.threshold_usd)}`
      : 'off',
  ],
  ['card', w.auto_recharge.card_declined ? 'declined: every top-up fails' : 'works'],
];
