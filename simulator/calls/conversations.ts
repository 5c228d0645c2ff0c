// The one place call and text records are created and moved on, whoever makes them (quick jobs,
// voice calls, inbound traffic), so webhook events (call.started, call.ended, sms.received) cover
// every call and text, and calls and texts on the workspace's numbers draw the plan (billing.ts).
import { meterCall, meterText } from '../billing/index.js';
import { iso } from '../core/clock.js';
import {
  transcriptText,
  type CallRecord,
  type Contact,
  type TextRecord,
  type TranscriptTurn,
  type CallStatus,
  addContact,
  changeContact,
  contactById,
  contactByPhone,
  newContact,
  noteInbound,
  asView,
  newRecordTime,
  recordIndex,
} from '../history/index.js';
import type { Session } from '../core/session.js';
import { schedule } from '../core/scheduler.js';
import { emitCallEvent, emitTextReceived } from '../webhooks/index.js';

export interface CallStart {
  workspace_id: string;
  direction: 'inbound' | 'outbound';
  from_number: string;
  to_number: string;
  contact_id: string | null;
  phone_number_id: number | null;
}

export function openCall(s: Session, o: CallStart): CallRecord {
  const call: CallRecord = {
    id: s.rng.uuid(),
    seq: s.nextSeq(),
    ...o,
    status: 'RINGING',
    duration_seconds: null,
    summary: '',
    transcript: '',
    transcript_turns: [],
    tags: [],
    has_recording: false,
    end_reason: null,
    started_at: null,
    ended_at: null,
    created_at: newRecordTime(s.data, 'calls', o.workspace_id, s.now),
  };
  s.data.calls.push(call);
  emitCallEvent(s, call, 'call.started');
  return call;
}

/** A time of the call: now, but never before its created_at (a few ms ahead of the clock when calls share an instant). */
const notBefore = (call: CallRecord, now: number) => iso(Math.max(now, Date.parse(call.created_at)));

export function answerCall(s: Session, call: CallRecord): void {
  call.status = 'IN_PROGRESS';
  call.started_at = notBefore(call, s.now);
}

/** The least of a turn heard before the call ends for it to count as said (and be audible in the recording). */
export const LEAST_SAID_SECONDS = 1;

/**
 * The turns said in a call of `seconds`: a turn the call's end cut before a second of it was heard
 * (the person hung up as it began, or the API hung up) was not said, so neither the transcript nor
 * the recording has it; every turn kept is then audible from its seconds_from_start.
 */
export function saidBy(turns: TranscriptTurn[], seconds: number | null): TranscriptTurn[] {
  if (seconds === null) return turns;
  return turns.filter((t) => (t.seconds_from_start ?? 0) <= seconds - LEAST_SAID_SECONDS);
}

export function closeCall(
  s: Session,
  call: CallRecord,
  o: {
    status: CallStatus;
    end_reason: string;
    duration_seconds: number | null;
    turns?: TranscriptTurn[];
    has_recording?: boolean;
  },
): void {
  call.status = o.status;
  call.end_reason = o.end_reason;
  call.duration_seconds = o.duration_seconds;
  call.ended_at = notBefore(call, s.now);
  if (o.turns) {
    call.transcript_turns = saidBy(o.turns, o.duration_seconds);
    call.transcript = transcriptText(call.transcript_turns);
  }
  // a call that lasted no time has nothing to hear
  call.has_recording = !!o.has_recording && (o.duration_seconds ?? 0) > 0;
  if (call.has_recording) keepRecordingFor(s, call);
  meterCall(s, call);
  emitCallEvent(s, call, 'call.ended');
}

/**
 * A recording on one of the workspace's numbers is kept for its call_settings.recording_retention_days
 * (as set when the call ended), then deleted: the call then has no audio (has_recording false,
 * recording_url null, the download 404). Calls from the shared quick-action numbers keep theirs.
 */
function keepRecordingFor(s: Session, call: CallRecord): void {
  const n = call.phone_number_id === null ? undefined : s.data.phone_numbers.find((x) => x.id === call.phone_number_id);
  if (!n) return;
  const days = n.config.call_settings.recording_retention_days;
  schedule(s, Date.parse(call.ended_at ?? iso(s.now)) + days * DAY_MS, 'call.recording_expired', { call: call.id });
}

const DAY_MS = 86_400_000;

/** The timer of keepRecordingFor: the retention has run out. */
export function expireRecording(s: Session, id: string): void {
  const call = findCall(s, id);
  if (call?.has_recording) call.has_recording = false;
}

export const findCall = (s: Session, id: string) =>
  asView(s.data, 'calls', recordIndex<CallRecord>(s.data, 'calls').byId.get(id));

export function recordText(s: Session, o: Omit<TextRecord, 'id' | 'seq' | 'created_at'>): TextRecord {
  const created_at = newRecordTime(s.data, 'texts', o.workspace_id, s.now);
  const rec: TextRecord = { id: s.rng.uuid(), seq: s.nextSeq(), ...o, created_at };
  s.data.texts.push(rec);
  if (o.direction === 'inbound' && o.contact_id) {
    const c = contactById(s.data, o.contact_id);
    if (c) noteInbound(c, 'texts', created_at, Date.parse(created_at));
  }
  if (o.direction === 'inbound') emitTextReceived(s, rec);
  meterText(s, rec);
  return rec;
}

/** The contact for a number, created (named `name`, or after the number) when there is none. */
export function ensureContact(s: Session, workspaceId: string, phone: string, name: string | null = null): Contact {
  const existing = contactByPhone(s.data, workspaceId, phone);
  if (existing) return existing;
  const c = newContact(s.rng, workspaceId, s.now, { name: name ?? phone, phone_number: phone });
  if (!name) Object.assign(c, { first_name: null, last_name: null });
  return addContact(s.data, c);
}

export const isOptedOut = (s: Session, workspaceId: string, phone: string) =>
  s.data.opt_outs.some((o) => o.workspace_id === workspaceId && o.phone_number === phone);

export function optOut(s: Session, workspaceId: string, phone: string): void {
  if (isOptedOut(s, workspaceId, phone)) return;
  s.data.opt_outs.push({ workspace_id: workspaceId, phone_number: phone, at: iso(s.now) });
  const c = contactByPhone(s.data, workspaceId, phone);
  if (c) changeContact(c, { consent: { ...c.consent, sms_opted_in: false } }, s.now);
}

export interface OptOut {
  workspace_id: string;
  phone_number: string;
  at: string;
}

declare module '../core/world.js' {
  interface World {
    opt_outs: OptOut[];
  }
}
