// What the panes read of the world, gathered: the people reached and each one's texts, calls and
// emails (the history routes name one person at a time), and the records of the other kinds.
import type { Infer } from '../simulator/core/schema.js';
import type {
  CallRecordSchema,
  DeliveryAttemptSchema,
  EmailRecordSchema,
  PersonSummarySchema,
  TextRecordSchema,
  TranscriptTurnSchema,
} from '../simulator/history/records.js';
import type { LedgerEntry as StoredEntry } from '../simulator/billing/records.js';
import type { VideoSchema } from '../simulator/videos/records.js';
import type { ConversationSchema } from '../simulator/assistant/records.js';
import type { ActivityItemSchema } from '../simulator/inspector/records.js';
import { get, type List } from './api';

// The shapes the page reads are the API's own: the route schemas' types (type-only imports, which
// the build erases: no simulator code reaches the page).
export type Person = Infer<typeof PersonSummarySchema>;
export type Turn = Infer<typeof TranscriptTurnSchema>;
export type Call = Infer<typeof CallRecordSchema>;
export type Text = Infer<typeof TextRecordSchema>;
export type Email = Infer<typeof EmailRecordSchema>;
export type Delivery = Infer<typeof DeliveryAttemptSchema>;
/** (as GET /_sim/ledger answers it: the stored entry without its sequence and workspace) */
export type LedgerEntry = Omit<StoredEntry, 'seq' | 'workspace_id'>;
export type Video = Infer<typeof VideoSchema>;
export type Conversation = Infer<typeof ConversationSchema>;
/** (as GET /_sim/activity lists them) */
export type ActivityItem = Infer<typeof ActivityItemSchema>;

/** The query naming one person for the history routes. */
function whoQuery(p: Person, kind: 'phone' | 'email'): string | null {
  if (p.contact_id) return `contact_id=${encodeURIComponent(p.contact_id)}`;
  if (kind === 'phone' && p.phone_number) return `phone_number=${encodeURIComponent(p.phone_number)}`;
  if (kind === 'email' && p.email) return `email=${encodeURIComponent(p.email)}`;
  return null;
}

export const people = async () => (await get<List<Person>>('/v1/history/people?limit=100')).data;

/** One person's texts, calls and emails (each newest first). */
export async function historyOf(p: Person): Promise<{ texts: Text[]; calls: Call[]; emails: Email[] }> {
  const phone = whoQuery(p, 'phone');
  const mail = whoQuery(p, 'email');
  const [texts, calls, emails] = await Promise.all([
    phone && p.text_count ? get<List<Text>>(`/v1/history/texts?limit=100&${phone}`) : null,
    phone && p.call_count ? get<List<Call>>(`/v1/history/calls?limit=50&${phone}`) : null,
    mail && p.email_count ? get<List<Email>>(`/v1/history/emails?limit=100&${mail}`) : null,
  ]);
  return { texts: texts?.data ?? [], calls: calls?.data ?? [], emails: emails?.data ?? [] };
}

/** A person's name as the page shows it (an address the person lacks is the empty string). */
export const nameOf = (p: Person) => p.name || p.phone_number || p.email || 'someone';

/** A person's number or address, when it says more than their name (someone reached without a contact is named by it). */
export function addressOf(p: Person): string | null {
  const address = p.phone_number || p.email;
  return address && address !== nameOf(p) ? address : null;
}

/** A person on one line: the name, then the number or address when it is not the name. */
export const personLabel = (p: Person) => [nameOf(p), addressOf(p)].filter(Boolean).join(' ');

/** A person's path in the page. */
export const personPath = (p: Person) =>
  `/conversations/${encodeURIComponent(p.contact_id ?? (p.phone_number || p.email))}`;
