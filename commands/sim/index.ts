// vmv sim: the local simulator, served and driven (clock, keys, wallet, fixtures); each verb in its own file.
import type { Command } from 'commander';
import type { Shell } from '../../src/command.js';
import type { FieldAliases } from '../../src/field-flags.js';
import { define as advance } from './advance.js';
import { define as call } from './call.js';
import { define as callerId } from './caller-id.js';
import { define as defaults } from './defaults.js';
import { define as number } from './number.js';
import { define as outbox } from './outbox.js';
import { define as clock } from './clock.js';
import { define as contact } from './contact.js';
import { define as deliveries } from './deliveries.js';
import { define as exportWorld } from './export.js';
import { define as hosts } from './hosts.js';
import { define as persona } from './persona.js';
import { define as importWorld } from './import.js';
import { define as key } from './key.js';
import { define as pool } from './pool.js';
import { define as repair } from './repair.js';
import { define as reset } from './reset.js';
import { define as serve } from './serve.js';
import { define as social } from './social.js';
import { define as suppress } from './suppress.js';
import { define as text } from './text.js';
import { define as trigger } from './trigger.js';
import { define as ui } from './ui.js';
import { define as wallet } from './wallet.js';
import { define as workspace } from './workspace.js';

/**
 * Request fields named otherwise than their flag (see src/field-flags.ts); repeatable flags send a
 * list under the plural name, and sim wallet and sim workspace set fields inside plan, auto_recharge
 * and rate_limits.
 */
export const fieldAliases: FieldAliases = {
  '--phone': ['phone_number'],
  '--scope': ['scopes'],
  '--tag': ['tags'],
  '--set': ['wallet_usd'],
  '--recharge-amount': ['auto_recharge.amount_usd'],
  '--recharge-threshold': ['auto_recharge.threshold_usd'],
  '--card-declined': ['auto_recharge.card_declined'],
  '--auto-recharge': ['auto_recharge.enabled'],
  '--per-minute': ['plan.per_minute_usd'],
  '--per-text': ['plan.per_text_usd'],
  '--included-minutes': ['plan.included_minutes'],
  '--included-texts': ['plan.included_texts'],
  '--video-credits': ['plan.video_credits_cents'],
  '--content': ['plan.content'],
  '--assistant': ['plan.assistant'],
  '--quick-emails-per-minute': ['rate_limits.quick_emails_per_minute'],
  '--recordings': ['recordings_disabled'],
};

export function register(sim: Command, shell: Shell): void {
  for (const d of [
    serve,
    ui,
    reset,
    clock,
    advance,
    key,
    contact,
    wallet,
    workspace,
    suppress,
    text,
    call,
    trigger,
    pool,
    number,
    callerId,
    defaults,
    deliveries,
    outbox,
    hosts,
    persona,
    social,
    exportWorld,
    importWorld,
    repair,
  ])
    d(sim, shell);
}
