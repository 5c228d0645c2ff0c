// An AI number's wiring: provisioning takes a simulated minute; area code 555 cannot be wired and
// fails, and its month is refunded (the line never worked).
import { freshNumber } from '../numbers.js';
import { orgOfWorkspace } from '../people.js';
import type { TimerHandlers } from '../scheduler.js';

export const LINE_CENTS_PER_MONTH = 500;
export const WIRING_SECONDS = 60;
export const UNWIREABLE_AREA_CODE = '555';

export const aiNumberTimers: TimerHandlers = {
  'ainumber.wire': (s, p) => {
    const n = s.data.phone_numbers.find((x) => x.id === p.id);
    if (!n || n.status !== 'provisioning') return;
    if (n.area_code === UNWIREABLE_AREA_CODE) {
      n.status = 'failed';
      orgOfWorkspace(s.data, n.workspace_id).wallet_cents += LINE_CENTS_PER_MONTH;
      return;
    }
    n.phone_number = freshNumber(s, n.area_code!);
    n.status = 'ready';
  },
};
