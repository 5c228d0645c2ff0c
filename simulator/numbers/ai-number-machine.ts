// An AI number's wiring and its line: provisioning takes a simulated minute; area code 555 cannot be
// wired and fails, and its month is refunded (the line never worked). Each month after the purchase
// the line is charged again, or the number is suspended (billing.ts).
import { freshNumber } from './numbers.js';
import type { TimerHandlers } from '../core/scheduler.js';
import { chargeLine, refundLine } from './lines.js';

export const WIRING_SECONDS = 60;
export const UNWIREABLE_AREA_CODE = '555';

export const aiNumberTimers: TimerHandlers = {
  'ainumber.wire': (s, p) => {
    const n = s.data.phone_numbers.find((x) => x.id === p.id);
    if (!n || n.status !== 'provisioning') return;
    if (n.area_code === UNWIREABLE_AREA_CODE) {
      n.status = 'failed';
      refundLine(s, n, 'it could not be wired up');
      return;
    }
    n.phone_number = freshNumber(s, n.area_code!);
    n.status = 'ready';
  },
  'ainumber.line': chargeLine,
};
