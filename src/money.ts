// Money as text, written once for the simulator and the command line: amounts are integer cents
// inside, and dollars only where the API gives or takes them (`cents()` at that edge). Pure and
// dependency-free, like formats.ts, so both bundles carry it; the simulator reaches it through
// billing (simulator/billing/money.ts re-exports it).

/** Dollars, as the API's `*_usd` numbers carry them, from integer cents. */
export const usd = (cents: number): number => Math.round(cents) / 100;
/** Integer cents from dollars the API gave (or was given). */
export const cents = (dollars: number): number => Math.round(dollars * 100);
/** An amount with two decimals, "12.50": the API's text fields (`price_usd`). */
export const usdAmount = (cents: number): string => usd(cents).toFixed(2);
/** An amount as a sentence writes it: "12.50 USD". */
export const price = (cents: number): string => `${usdAmount(cents)} USD`;
