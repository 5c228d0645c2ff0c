// An assistant conversation's runs on the simulator clock (spec Part 3, Assistant conversation).
// A message starts a run: it thinks for THINK_SECONDS, then either waits for approval of the
// actions that cost money or cannot be undone (awaiting_approval, every one listed at once), or
// takes its actions one by one, ACT_SECONDS each, through the API's own operations, and ends idle
// with its reply. `#fail-run` fails the run (failed, error set); the next message starts afresh.
// The message is read by understand.ts (dates by dates.ts, imported here: the only place that loads
// the date parser); questions about the history are planned and worded by questions.ts.
import { humanTime } from '../../src/formats.js';
import { iso } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import type { ConversationRecord, RunStep } from './records.js';
import { schedule, type TimerEnv, type TimerHandlers } from '../core/scheduler.js';
import type { Session } from '../core/session.js';
import { instantOf, localDay } from '../schedules/index.js';
import { emailDraft, emailRecipient } from './agent.js';
import { failsRun, readMessage, unknownReply, type About, type Intent } from './understand.js';
import { TOOLS } from './tools.js';
import { followUpSaid, noteStarted, planFollowUp } from './follow-ups.js';
import { answerAboutNumber, answerQuestion, EMAILS_PER_PERSON, planAboutNumber, planQuestion } from './questions.js';
import type { LocalNow } from './dates.js';
import { cents, price } from '../billing/index.js';
import { CALL_MINUTE_CENTS, CALL_START_CENTS, TEXT_MESSAGE_CENTS } from '../quick/index.js';
import { LINE_CENTS_PER_MONTH } from '../numbers/index.js';
import { answerMoney, answerVideos } from './money.js';

const THINK_SECONDS = 2;
const ACT_SECONDS = 3;

const workspaceOf = (s: Session, c: ConversationRecord) => s.data.workspaces.find((w) => w.id === c.workspace_id)!;
const asOf = (c: ConversationRecord) => ({ workspaceId: c.workspace_id, apiKeyId: c.api_key_id });

/** Starts a run for a message: working, thinking first. */
export function startRun(s: Session, c: ConversationRecord, message: string): void {
  c.run_id = s.rng.uuid();
  c.status = 'working';
  c.reply = '';
  c.actions = [];
  c.pending_approvals = [];
  c.error = null;
  c.not_understood = [];
  c.transcript.push({ role: 'user', content: message, at: iso(s.now) });
  c.run = { message, intents: [], steps: [], sentences: [], scratch: {} };
  touch(s, c);
  schedule(s, s.now + THINK_SECONDS * 1000, 'assistant.think', { id: c.conversation_id, run: c.run_id });
}

function touch(s: Session, c: ConversationRecord): void {
  c.updated_at = iso(s.now);
  s.markDirty();
}

const zoneOf = (s: Session, c: ConversationRecord) => workspaceOf(s, c).time_zone ?? 'UTC';

/** Now in the workspace's zone, as the date reader takes it: "yesterday" is the workspace's local yesterday. */
function localNow(s: Session, zone: string): LocalNow {
  const today = localDay(s.now, zone);
  const midnight = instantOf(today, 0, zone);
  const offsetMinutes = Math.round((Date.parse(`${today}T00:00:00Z`) - midnight) / 60_000);
  return { instant: new Date(s.now), offsetMinutes, today, hour: Math.floor((s.now - midnight) / 3_600_000) };
}

function step(
  s: Session,
  clause: number,
  tool: string,
  input: Record<string, unknown>,
  extra: { price_usd?: string } = {},
): RunStep {
  return {
    tool_call_id: s.rng.uuid(),
    clause,
    tool,
    input,
    approval: TOOLS[tool].approval(input, extra),
    decision: null,
    reason: null,
    done: false,
  };
}

/** Reads the message and plans its tool calls; then takes the free ones, and asks approval of the costly ones all at once. */
async function think(s: Session, c: ConversationRecord, env: TimerEnv): Promise<void> {
  const run = c.run!;
  if (failsRun(run.message)) {
    c.status = 'failed';
    c.error =
      "The run failed: the assistant's model provider returned an error (simulated by #fail-run). Send another message to go on.";
    return touch(s, c);
  }
  // the date parser is loaded here, for the assistant only (a file of its own in the build)
  const { readDate } = await import('./dates.js');
  const now = localNow(s, zoneOf(s, c));
  c.context ??= {};
  run.intents = readMessage(run.message, (text, ahead) => readDate(text, now, ahead), c.context);
  c.not_understood = run.intents.flatMap((x) => (x.kind === 'unknown' ? [x.said] : []));
  for (const [i, intent] of run.intents.entries()) await planClause(s, c, env, i, intent);
  next(s, c);
}

/** Plans clause `i` of the message: steps to take (a call the key may not make said at once instead), or a sentence of the reply. */
async function planClause(s: Session, c: ConversationRecord, env: TimerEnv, i: number, intent: Intent): Promise<void> {
  const run = c.run!;
  // a call the key may not make (its scopes, the plan) is said at once, not asked about or tried
  const add = async (tool: string, input: Record<string, unknown>, extra?: { price_usd?: string }): Promise<void> => {
    const why = await env.authorize(s, asOf(c), TOOLS[tool].call(input));
    if (why) run.sentences[i] = `I can't ${doing(intent)}: ${why}`;
    else run.steps.push(step(s, i, tool, input, extra));
  };
  switch (intent.kind) {
    case 'unknown':
      run.sentences[i] = unknownReply(intent.said, intent.why, firstNumber(s, c));
      return;
    case 'say':
      run.sentences[i] = intent.text;
      return;
    case 'text':
      return add('create_quick_ai_text', { to_numbers: [intent.to], goal: intent.goal });
    case 'call':
      return add('create_quick_ai_call', { to_numbers: [intent.to], goal: intent.goal });
    case 'email': {
      const r = emailRecipient(s.data, c.workspace_id, intent.who);
      if (!r.ok) {
        run.sentences[i] = r.reply;
        return;
      }
      return add('send_quick_email', { to: [r.email], ...emailDraft(intent.topic, r.name, workspaceOf(s, c).name) });
    }
    case 'question': {
      if (intent.subject === 'emails') {
        run.sentences[i] = EMAILS_PER_PERSON;
        return;
      }
      const first = planQuestion(intent, zoneOf(s, c));
      return add(first.tool, first.input);
    }
    case 'agreed':
    case 'said_then':
    case 'cost': {
      const first = aboutNumber(c, intent)
        ? planAboutNumber(intent as About & { phone: string }, zoneOf(s, c))
        : planFollowUp(c, intent);
      if ('sentence' in first) run.sentences[i] = first.sentence;
      else await add(first.tool, first.input);
      return;
    }
    case 'video':
      return planVideo(s, c, env, i, intent);
    case 'schedules':
      return add('list_video_schedules', { limit: 20 });
    case 'money':
      run.sentences[i] = answerMoney(s, c.workspace_id, intent, zoneOf(s, c));
      return;
    case 'videos':
      run.sentences[i] = answerVideos(s, c.workspace_id, intent, zoneOf(s, c));
      return;
    case 'buy_number':
      if (intent.area_code === null) {
        run.sentences[i] =
          'Which area code should the number be in? Say it with the request, such as "buy a number in 415" (a number costs a monthly line charge, and I will ask your approval first).';
        return;
      }
      return add('create_quick_ai_number', { area_code: intent.area_code });
    case 'greeting':
      return add('update_phone_number_config', {
        phone_number_id: intent.number,
        voice: { greeting_message: intent.text },
      });
  }
}

/**
 * A video: authorized first, then quoted, so that the approval asked of the person names its price;
 * a refusal or a failed quote is said instead.
 */
async function planVideo(
  s: Session,
  c: ConversationRecord,
  env: TimerEnv,
  i: number,
  intent: Extract<Intent, { kind: 'video' }>,
): Promise<void> {
  const run = c.run!;
  const input = {
    template: 'talking_avatar',
    source_text: intent.topic,
    target_duration_seconds: Math.min(600, Math.max(5, intent.seconds)),
  };
  const why = await env.authorize(s, asOf(c), TOOLS.create_video.call(input));
  if (why) {
    run.sentences[i] = `I can't ${doing(intent)}: ${why}`;
    return;
  }
  try {
    const q = await env.invoke(s, asOf(c), TOOLS.quote_video.call(input));
    // authorized above: the quote changes nothing it depends on
    run.steps.push(step(s, i, 'create_video', input, { price_usd: q.body.data.price_usd }));
  } catch (e) {
    run.sentences[i] = `I can't make that video: ${e instanceof ApiError ? e.message : 'the video service failed'}`;
  }
}

/** The workspace's first phone number's id (the oldest), for an example that names one; null when it has none. */
function firstNumber(s: Session, c: ConversationRecord): number | null {
  const ids = s.data.phone_numbers.filter((n) => n.workspace_id === c.workspace_id).map((n) => n.id);
  return ids.length > 0 ? Math.min(...ids) : null;
}

/** A step still to take: free ones first, then approved ones; declined ones never. */
const ready = (x: RunStep) => !x.done && (x.approval === null || x.decision === 'approved');

/**
 * What comes next: the next step to take (free ones first: they run at once), else the approvals
 * of every costly step not yet answered, asked all at once, else the end of the run.
 */
function next(s: Session, c: ConversationRecord): void {
  const run = c.run!;
  if (run.steps.some(ready)) {
    schedule(s, s.now + ACT_SECONDS * 1000, 'assistant.act', { id: c.conversation_id, run: c.run_id });
    return touch(s, c);
  }
  const asking = run.steps.filter((x) => x.approval !== null && x.decision === null);
  if (asking.length > 0) {
    c.status = 'awaiting_approval';
    c.pending_approvals = asking.map((x) => ({
      approval_id: s.rng.uuid(),
      tool_call_id: x.tool_call_id,
      tool: x.tool,
      input: x.input,
      reason: x.approval!,
    }));
    const said = sayings(run);
    // what each costs is in pending_approvals' reasons: the reply names them, once
    const what = asking.map((x) => doing(run.intents[x.clause]));
    c.reply = `${said ? `${said}\n` : ''}Before I go on I need your approval to ${what.length === 1 ? what[0] : `${what.slice(0, -1).join(', ')} and ${what[what.length - 1]}`}.`;
    return touch(s, c);
  }
  finish(s, c);
}

function finish(s: Session, c: ConversationRecord): void {
  const run = c.run!;
  c.reply = sayings(run);
  c.status = 'idle';
  c.pending_approvals = [];
  c.transcript.push({ role: 'assistant', content: c.reply, at: iso(s.now) });
  touch(s, c);
}

/** What has been said so far: each clause's sentence, in the message's order. */
const sayings = (run: NonNullable<ConversationRecord['run']>) =>
  run.sentences.filter((x) => x !== undefined).join('\n');

/** Takes one step through the API's own operations and words what came of it. */
async function act(s: Session, c: ConversationRecord, env: TimerEnv): Promise<void> {
  const run = c.run!;
  // free steps first, in order; then the approved ones
  const x = run.steps.find((y) => ready(y) && y.approval === null) ?? run.steps.find(ready)!;
  x.done = true;
  const intent = run.intents[x.clause];
  try {
    const out = await env.invoke(s, asOf(c), TOOLS[x.tool].call(x.input));
    const output = (out.body ?? {}) as Record<string, unknown>;
    c.actions.push({
      tool_call_id: x.tool_call_id,
      tool: x.tool,
      status: 'completed',
      input: x.input,
      output,
      error: null,
    });
    noteStarted(c, x.tool, x.input, output);
    const follow = said(s, c, x.clause, intent, x.tool, output, x.input);
    if (follow) run.steps.push(step(s, x.clause, follow.tool, follow.input));
  } catch (e) {
    const message =
      e instanceof ApiError
        ? e.message +
          (e.fields
            ? ` (${Object.entries(e.fields)
                .map(([k, v]) => `${k} ${v}`)
                .join('; ')})`
            : '')
        : 'the service failed';
    c.actions.push({
      tool_call_id: x.tool_call_id,
      tool: x.tool,
      status: 'failed',
      input: x.input,
      error: message,
    });
    run.sentences[x.clause] = `I could not ${doing(intent)}: ${message}`;
  }
  c.reply = sayings(run);
  next(s, c);
}

/** Puts a tool's result in words for its clause (`i`, its intent's index); returns a follow-up call when the clause needs one. */
function said(
  s: Session,
  c: ConversationRecord,
  i: number,
  intent: Intent,
  tool: string,
  out: Record<string, any>,
  input: Record<string, unknown>,
): { tool: string; input: Record<string, unknown> } | void {
  const run = c.run!;
  const data = out.data;
  switch (intent.kind) {
    case 'text':
    case 'call':
      run.sentences[i] =
        `I started an AI ${intent.kind} to ${intent.to} toward "${intent.goal}" (quick action ${data.id}); ` +
        (intent.kind === 'text'
          ? `it bills ${price(TEXT_MESSAGE_CENTS)} per message the agent sends.`
          : `it bills ${price(CALL_START_CENTS)} per call placed plus ${price(CALL_MINUTE_CENTS)} a minute.`);
      return;
    case 'email':
      run.sentences[i] =
        `I emailed ${data.sent_to.join(', ') || 'no one (every address is suppressed)'} about ${intent.topic} (${price(cents(data.cost_usd))}).`;
      return;
    case 'question': {
      const seen = (run.scratch[i] ?? {}) as Record<string, string>;
      run.scratch[i] = seen;
      const then = answerQuestion(s, intent, zoneOf(s, c), out, input, seen, (phone) => {
        c.context = { ...c.context, phone, span: intent.span, focus: 'phone' };
      });
      if ('next' in then) return then.next;
      run.sentences[i] = then.sentence;
      return;
    }
    case 'agreed':
    case 'said_then':
    case 'cost': {
      const then = aboutNumber(c, intent)
        ? answerAboutNumber(intent as About & { phone: string }, tool, out)
        : followUpSaid(intent.kind, tool, out);
      if ('sentence' in then) run.sentences[i] = then.sentence;
      else return 'next' in then ? then.next : then;
      return;
    }
    case 'video':
      run.sentences[i] =
        `I started a ${data.target_duration_seconds}-second ${data.template} video about "${intent.topic}" (video ${data.id}); about ${data.price_usd} USD, charged when its script is written.`;
      return;
    case 'schedules': {
      const list = data as ScheduleSeen[];
      run.sentences[i] =
        list.length === 0
          ? 'There are no video schedules.'
          : `${list.length} video schedule${list.length === 1 ? '' : 's'}:\n${list.map(scheduleLine).join('\n')}`;
      return;
    }
    case 'greeting':
      run.sentences[i] = `I changed the greeting on number ${intent.number} to "${intent.text}".`;
      return;
    case 'buy_number':
      run.sentences[i] =
        `I bought a number in area code ${intent.area_code} (AI number ${data.id}, ${data.status}): its AI agent answers once it is wired up, in about a minute; ` +
        `the line bills ${price(LINE_CENTS_PER_MONTH)} a month.`;
      return;
  }
}

/** What the assistant reads of a video schedule to list it. */
interface ScheduleSeen {
  name: string;
  status: string;
  next_run_at: string | null;
  videos_per_day: number;
  time_zone: string;
}

/** A schedule's line in the list: paused, when it next posts, or that no posting day is left. */
function scheduleLine(x: ScheduleSeen): string {
  if (x.status === 'paused') return `- ${x.name}: paused`;
  if (!x.next_run_at) return `- ${x.name}: no posting day left`;
  const videos = `${x.videos_per_day} video${x.videos_per_day === 1 ? '' : 's'}`;
  const zone = x.time_zone === 'UTC' ? '' : ` (the schedule's zone: ${x.time_zone})`;
  return `- ${x.name}: next posts ${videos} at ${humanTime(x.next_run_at)}${zone}`;
}

/** "text +1…", "email Maria Gonzalez"…: what a clause does, for "I did not …" and "I could not …". */
function doing(intent: Intent): string {
  switch (intent.kind) {
    case 'text':
      return `text ${intent.to}`;
    case 'call':
      return `call ${intent.to}`;
    case 'email':
      return `email ${intent.who} about ${intent.topic}`;
    case 'video':
      return `make the video about "${intent.topic}"`;
    case 'greeting':
      return `change the greeting on number ${intent.number}`;
    case 'buy_number':
      return `buy a number in area code ${intent.area_code}`;
    case 'question': {
      const when = intent.span ? ` ${intent.span.label}` : '';
      if (intent.ask === 'count') return `count the ${intent.subject}${when}`;
      if (intent.ask === 'list') return `list the ${intent.subject}${when}`;
      const verb = { calls: 'called', texts: 'texted', emails: 'emailed' }[intent.subject];
      return intent.direction === 'inbound' ? `list who ${verb}${when}` : `list whom you ${verb}${when}`;
    }
    case 'agreed':
      return 'tell whether they agreed';
    case 'said_then':
      return intent.phone ? `read the last call with ${intent.phone}` : 'read what they said';
    case 'cost':
      return 'tell what it cost';
    case 'schedules':
      return 'read the video schedules';
    default:
      return 'do that';
  }
}

/**
 * Whether a question about an exchange means a number's last call rather than what the conversation
 * started: it names (or means) a number the conversation started nothing with.
 */
function aboutNumber(c: ConversationRecord, a: About): boolean {
  return !!a.phone && !(c.started ?? []).some((x) => x.to.split(', ').includes(a.phone!));
}

/** Applies every answer to the pending approvals (checked by the route): declined ones are not done, and said so. */
export function answer(
  s: Session,
  c: ConversationRecord,
  answers: Map<string, { approved: boolean; reason: string | null }>,
): void {
  const run = c.run!;
  for (const p of c.pending_approvals) {
    const a = answers.get(p.approval_id)!;
    const x = run.steps.find((y) => y.tool_call_id === p.tool_call_id)!;
    x.decision = a.approved ? 'approved' : 'declined';
    if (!a.approved) {
      x.done = true;
      x.reason = a.reason;
      c.actions.push({
        tool_call_id: x.tool_call_id,
        tool: x.tool,
        status: 'declined',
        input: x.input,
        error: a.reason ? `declined: ${a.reason}` : 'declined',
      });
      run.sentences[x.clause] =
        `I did not ${doing(run.intents[x.clause])}: you declined${a.reason ? ` ("${a.reason}")` : ''}.`;
    }
  }
  c.pending_approvals = [];
  c.status = 'working';
  c.reply = sayings(run);
  next(s, c);
}

export const assistantTimers: TimerHandlers = {
  'assistant.think': async (s, p, env) => {
    const c = s.data.assistant_conversations.find((x) => x.conversation_id === p.id);
    if (c && c.run_id === p.run && c.status === 'working') await think(s, c, env);
  },
  'assistant.act': async (s, p, env) => {
    const c = s.data.assistant_conversations.find((x) => x.conversation_id === p.id);
    if (c && c.run_id === p.run && c.status === 'working') await act(s, c, env);
  },
};
