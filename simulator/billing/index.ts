// Billing's surface: money in and out of the wallet (charges, refunds, prices in cents and dollars), the plan's rates and what a workspace used of them, the ledger's kinds.
// Other capabilities reach this one only through this file; everything else in the folder is its own.
export { LEDGER_KEPT, canCover, cents, charge, chargeUpTo, price, refund, setWallet, usd, usdAmount } from './money.js';
export { addMonths, allowanceLeft, mayUse, meterCall, meterText, usageAt } from './plans.js';
export type { Use } from './plans.js';
export { LEDGER_KINDS } from './records.js';
export type { LedgerEntry } from './records.js';
