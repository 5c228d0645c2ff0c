// What the inspector's routes answer, declared apart from their handlers: the page takes its types
// from here (type-only imports, which the build erases) without taking in the capabilities the
// handlers read.
import * as z from 'zod/mini';
import { doc, named, nullable, oneOf, record, timestamp } from '../core/schema.js';

export const ACTIVITY_KINDS = ['text', 'call', 'email', 'video', 'post', 'delivery', 'charge'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export const ActivityItemSchema = named(
  'ActivityItem',
  () =>
    record({
      kind: oneOf(ACTIVITY_KINDS),
      id: doc(z.string(), {
        description:
          "what it is: a record's, video's, post's or delivery attempt's id; a ledger entry's is what it paid for, @ its time",
        example: '3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90',
      }),
      at: timestamp('when it happened (a record, video or post: when it was made)'),
      title: doc(z.string(), {
        description: 'what it was, in a line: the direction, numbers or addresses, the state',
        example: 'inbound text +14155550123 → +14155550100',
      }),
      text: doc(z.string(), 'the whole body, summary, caption or permalink; empty when it has none'),
      amount_cents: doc(
        nullable(z.int()),
        "what it cost, in cents: a video's price, a ledger entry's wallet movement (negative: added); null for the others",
      ),
      person: doc(
        nullable(z.string()),
        'who a text, call or email was with, as the people list names them: the contact, or the number or address',
      ),
      refs: doc(
        z.array(z.string()),
        "other ids it goes by (a quick action's, a quick email's: a ledger entry names them)",
      ),
      link: doc(z.string(), { description: "where the inspector's page shows it", example: '/calls/3f0c8a52' }),
    }),
  "One thing the workspace did, as the inspector's Activity pane lists it.",
);
