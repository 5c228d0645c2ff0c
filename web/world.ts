// What the panes read of the world, gathered: the people reached and each one's texts, calls and
// emails (the history routes name one person at a time), and the records of the other kinds.
import { get, type List } from './api';

export interface Person {
  contact_id: string | null;
  name: string | null;
  phone_number: string | null;
  email: string | null;
  call_count: number;
  text_count: number;
  email_count: number;
  last_contacted_at: string | null;
}
export interface Turn {
  speaker: string;
  text: string;
  seconds_from_start: number | null;
}
export interface Call {
  id: string;
  direction: string;
  status: string;
  from_number: string;
  to_number: string;
  contact_id: string | null;
  duration_seconds: number | null;
  summary: string;
  transcript_turns: Turn[];
  tags: string[];
  has_recording: boolean;
  end_reason: string | null;
  started_at: string | null;
  ended_at: string | null;
  created_at: string;
}
export interface Text {
  id: string;
  direction: string;
  sender: string;
  from_number: string;
  to_number: string;
  body: string;
  status: string;
  quick_action_id: string | null;
  created_at: string;
}
export interface Email {
  id: string;
  direction: string;
  status: string;
  from: string;
  to: string;
  subject: string;
  body: string;
  quick_email_id: string | null;
  created_at: string;
}
export interface LedgerEntry {
  at: string;
  kind: string;
  reference_id: string;
  description: string;
  credits_cents: number;
  wallet_cents: number;
  wallet_after_cents: number;
}
export interface Delivery {
  id: string;
  webhook_id: string | null;
  request: { method: 'POST'; headers: Record<string, string>; body: string } | null;
  resend_of: string | null;
  event_id: string;
  type: string;
  url: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  at: string;
}

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

/** A person's name as the page shows it. */
export const nameOf = (p: Person) => p.name ?? p.phone_number ?? p.email ?? 'someone';

/** A person's path in the page. */
export const personPath = (p: Person) =>
  `/conversations/${encodeURIComponent(p.contact_id ?? p.phone_number ?? p.email ?? '')}`;
