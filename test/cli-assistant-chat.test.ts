// The terminal chat of `vmv assistant chat`, frame by frame (ink-testing-library): typing and
// sending, the live status while a run works, approvals answered one by one (y approves; n declines
// and asks an optional reason) and sent together, a 409 conflict shown as a message, the input
// line's history, the chat's commands and how it is left. The service here is a stand-in behind the
// chat's AssistantApi: a conversation whose runs move one step per read, and stop moving on hold.
import { render } from 'ink-testing-library';
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Chat, type ChatEnd, type ChatProps } from '../commands/assistant/ui/chat.js';
import type { AssistantApi, ClockState } from '../commands/assistant/session.js';
import type {
  Action,
  ApprovalAnswer,
  Conversation,
  ConversationWithTranscript,
  MessageBody,
  PendingApproval,
} from '../commands/assistant/view.js';
import stringWidth from 'string-width';
import { ApiCallError } from '../src/errors.js';
import { endedText, type Started } from '../commands/assistant/outcome.js';

const T0 = Date.parse('2026-01-05T09:00:00Z');

/** What the stand-in assistant does for a message: actions done at once, approvals asked, the reply. */
interface Plan {
  actions: Omit<Action, 'tool_call_id'>[];
  approvals: Omit<PendingApproval, 'approval_id' | 'tool_call_id'>[];
  reply: string;
}

function planFor(message: string): Plan {
  if (/how many calls/i.test(message))
    return {
      actions: [
        { tool: 'list_calls', status: 'completed', input: { direction: 'inbound' }, output: { count: 2 }, error: null },
      ],
      approvals: [],
      reply: 'You got 2 inbound calls yesterday.',
    };
  const approvals: Plan['approvals'] = [];
  // "... about GOAL": the goal is in the input and the reason, as the service's are
  const goal = / about (.*)$/s.exec(message)?.[1];
  for (const m of message.matchAll(/(text|call) (\+\d+)/g))
    approvals.push(
      m[1] === 'text'
        ? {
            tool: 'create_quick_ai_text',
            input: { to_numbers: [m[2]], ...(goal ? { goal } : {}) },
            reason: `Starts an AI text conversation with ${m[2]}${goal ? ` toward "${goal}"` : ''}: 0.05 USD per message the agent sends, from the wallet.`,
          }
        : {
            tool: 'create_quick_ai_call',
            input: { to_numbers: [m[2]] },
            reason: `Places an AI call to ${m[2]}: 0.20 USD per call placed plus 0.20 USD a minute, from the wallet.`,
          },
    );
  if (approvals.length)
    return {
      actions: [],
      approvals,
      reply: `Before I go on I need your approval for ${approvals.length === 1 ? 'this' : `these ${approvals.length} actions`}.`,
    };
  return { actions: [], approvals: [], reply: 'I can text, call, email and read your history.' };
}

class StandIn implements AssistantApi {
  conversations = new Map<string, ConversationWithTranscript & { steps: (() => void)[] }>();
  /** while true, a working run stays working (reads change nothing) */
  hold = false;
  answers: ApprovalAnswer[][] = [];
  /** the next approvals answer is refused (400), as the service refuses one that misses an approval */
  refuseAnswers = false;
  /** how long the service takes to answer approvals (ms) */
  answerDelay = 0;
  private n = 0;
  private now = T0;

  private conflict(message: string): never {
    throw new ApiCallError(409, { error: { code: 'conflict', message } }, '');
  }

  async post(b: MessageBody): Promise<Conversation> {
    const at = new Date((this.now += 1000)).toISOString();
    let c = b.conversation_id ? this.conversations.get(b.conversation_id) : undefined;
    if (b.message !== undefined) {
      if (c?.status === 'working')
        this.conflict(
          'The assistant is still working on this conversation; read it until it is idle, then send again.',
        );
      if (c?.status === 'awaiting_approval')
        this.conflict('Approvals are pending: answer every one of them with "approvals" before sending a message.');
      if (!c) {
        const id = `00000000-0000-4000-8000-${String(++this.n).padStart(12, '0')}`;
        c = {
          conversation_id: id,
          title: [...b.message.replace(/\s+/g, ' ')].slice(0, 60).join(''),
          status: 'idle',
          run_id: '',
          reply: '',
          actions: [],
          pending_approvals: [],
          error: null,
          not_understood: [],
          updated_at: at,
          created_at: at,
          transcript: [],
          steps: [],
        };
        this.conversations.set(id, c);
      }
      const conv = c;
      const plan = planFor(b.message);
      Object.assign(conv, {
        status: 'working',
        run_id: `run_${++this.n}`,
        reply: '',
        actions: [],
        pending_approvals: [],
        error: null,
        updated_at: at,
      });
      conv.transcript.push({ role: 'user', content: b.message, at });
      const k = this.n;
      conv.steps = [
        ...plan.actions.map((a, i) => () => void conv.actions.push({ ...a, tool_call_id: `call_${k}_${i}` })),
        () => {
          if (plan.approvals.length) {
            conv.status = 'awaiting_approval';
            conv.pending_approvals = plan.approvals.map((p, i) => ({
              ...p,
              approval_id: `apr_${k}_${i}`,
              tool_call_id: `call_${k}_a${i}`,
            }));
          } else {
            conv.status = 'idle';
            conv.transcript.push({ role: 'assistant', content: plan.reply, at });
          }
          conv.reply = plan.reply;
        },
      ];
      return this.present(conv);
    }
    if (!c) throw new ApiCallError(404, { error: { code: 'not_found', message: 'No such conversation.' } }, '');
    if (this.answerDelay) await new Promise((r) => setTimeout(r, this.answerDelay));
    if (c.status !== 'awaiting_approval') this.conflict('No approval is pending in this conversation.');
    if (this.refuseAnswers) {
      this.refuseAnswers = false;
      throw new ApiCallError(
        400,
        { error: { code: 'validation_error', message: 'Every pending approval must be answered, in one request.' } },
        '',
      );
    }
    const conv = c;
    this.answers.push(b.approvals!);
    const pending = conv.pending_approvals;
    Object.assign(conv, { status: 'working', pending_approvals: [], reply: '' });
    conv.steps = [
      ...pending.map((p) => () => {
        const a = b.approvals!.find((x) => x.approval_id === p.approval_id)!;
        conv.actions.push({
          tool_call_id: p.tool_call_id,
          tool: p.tool,
          input: p.input,
          status: a.approved ? 'completed' : 'declined',
          ...(a.approved ? { output: { data: { id: `job_${p.tool_call_id}` } } } : {}),
          error: a.approved ? null : `declined${a.reason ? `: ${a.reason}` : ''}`,
        });
      }),
      () => {
        conv.status = 'idle';
        conv.reply = conv.actions
          .map((a) => (a.status === 'completed' ? `Done: ${a.tool}.` : `I did not do ${a.tool}: you declined.`))
          .join(' ');
        conv.transcript.push({ role: 'assistant', content: conv.reply, at });
      },
    ];
    return this.present(conv);
  }

  async get(id: string): Promise<ConversationWithTranscript> {
    const c = this.conversations.get(id);
    if (!c) throw new ApiCallError(404, { error: { code: 'not_found', message: 'No such conversation.' } }, '');
    if (!this.hold && c.status === 'working') c.steps.shift()?.();
    return { ...this.present(c), transcript: [...c.transcript] };
  }

  async list(): Promise<Conversation[]> {
    return [...this.conversations.values()].reverse().map((c) => this.present(c));
  }

  async clock(): Promise<ClockState | null> {
    return null;
  }

  async advance(): Promise<boolean> {
    return false;
  }

  private present(c: ConversationWithTranscript & { steps?: unknown }): Conversation {
    const { steps: _s, transcript: _t, ...rest } = c;
    return structuredClone({ ...rest, actions: [...c.actions], pending_approvals: [...c.pending_approvals] });
  }
}

const ENTER = '\r';
const CTRL_C = '\u0003';
const UP = '\u001b[A';

let app: ReturnType<typeof render> | null = null;
afterEach(() => {
  app?.unmount();
  app = null;
});

function start(o: Partial<ChatProps> = {}) {
  const api = (o.api as StandIn | undefined) ?? new StandIn();
  const ended: ChatEnd[] = [];
  app = render(
    createElement(Chat, {
      api,
      advance: false,
      manualClock: false,
      color: false,
      pollMs: 5,
      paceMs: 0,
      size: { columns: 100, rows: 24 },
      onExit: (e) => void ended.push(e),
      ...o,
    }),
  );
  const frame = () => app!.lastFrame() ?? '';
  /** waits until the screen shows `what` (and returns it) */
  const until = async (what: string | RegExp | (() => boolean), ms = 3000) => {
    const end = Date.now() + ms;
    for (;;) {
      const f = frame();
      if (typeof what === 'function') {
        if (what()) return f;
      } else if (typeof what === 'string' ? f.includes(what) : what.test(f)) return f;
      if (Date.now() > end) throw new Error(`the screen never showed ${what}; it shows:\n${f}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  // keys are written one at a time, as a terminal sends them, after the screen took the last one
  const type = async (...keys: string[]) => {
    for (const k of keys) {
      app!.stdin.write(k);
      await new Promise((r) => setTimeout(r, 15));
    }
  };
  return { api, ended, frame, until, type };
}

/** The screen's words, however they were wrapped. */
const words = (s: string) => s.replace(/\s+/g, ' ');

/** The frame's lines: none wider than the screen, no more of them than its rows. */
function fits(frame: string, size: { columns: number; rows: number }): string[] {
  const lines = frame.split('\n');
  for (const l of lines)
    expect(stringWidth(l), `a line wider than ${size.columns} columns:\n${l}\n\nin\n${frame}`).toBeLessThanOrEqual(
      size.columns,
    );
  expect(lines.length, `more lines than ${size.rows} rows:\n${frame}`).toBeLessThanOrEqual(size.rows);
  return lines;
}

describe('typing and sending a message', () => {
  it('shows what is typed on the input line; Enter sends it, the action is listed as it completes, then the reply', async () => {
    const { until, type, frame } = start();
    await until('Ask in plain English');
    await type('how many calls did we get yesterday?');
    expect(await until('› how many calls did we get yesterday?')).toContain('Enter send');
    await type(ENTER);
    const f = await until('You got 2 inbound calls yesterday.');
    // the transcript: the message, the action, the reply, in that order
    const lines = f.split('\n');
    const at = (s: string) => lines.findIndex((l) => l.includes(s));
    expect(at('› how many calls')).toBeGreaterThan(0);
    expect(at('✓ list_calls direction=inbound')).toBeGreaterThan(at('› how many calls'));
    expect(at('You got 2 inbound calls')).toBeGreaterThan(at('✓ list_calls'));
    // the header names the conversation; the input line is empty again
    expect(lines[0]).toContain('how many calls did we get yesterday? · 00000000');
    expect(frame().split('\n').at(-2)).toBe('›');
  });

  it('↑ and ↓ recall the lines sent, and come back to the one being written', async () => {
    const { until, type } = start();
    await type('how many calls did we get yesterday?', ENTER);
    await until('You got 2 inbound');
    await type('hello', ENTER);
    await until('I can text, call');
    await type('draft');
    await type(UP);
    await until('› hello');
    await type(UP);
    await until('› how many calls did we get yesterday?\n');
    await type('\u001b[B', '\u001b[B');
    await until('› draft');
  });
});

describe('while the assistant works', () => {
  it('a live status: spinner, seconds, actions done; a message sent meanwhile is refused by the service (409) and shown, the line kept', async () => {
    const api = new StandIn();
    api.hold = true;
    const { until, type, frame } = start({ api });
    await type('how many calls did we get yesterday?', ENTER);
    expect(await until(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] working · \d+s/)).toContain('› how many calls did we get yesterday?');
    await type('and today?', ENTER);
    const f = await until('conflict (HTTP 409): The assistant is still working');
    expect(f).toContain('The assistant is still working on this conversation');
    expect(f).toContain('› and today?'); // still on the input line, to send again
    expect(f).not.toContain('› and today?\n  '); // and not in the transcript
    api.hold = false;
    await until('You got 2 inbound calls yesterday.');
    expect(frame()).not.toMatch(/working ·/);
    await type(ENTER);
    await until(/› and today\?\n.*\n?\s+I can text/);
  });
});

describe('approvals', () => {
  it('shown one by one with what they cost: y approves, n declines and asks a reason; the answers go together', async () => {
    const { api, until, type } = start();
    await type('text +14155550100 then call +14155550101', ENTER);
    let f = await until('Approval 1 of 2: create_quick_ai_text');
    expect(f).toContain('Starts an AI text conversation with +14155550100: 0.05 USD per message');
    expect(f).toContain('y approve · n decline');
    await type('y');
    f = await until('Approval 2 of 2: create_quick_ai_call');
    expect(f).toContain('0.20 USD per call placed plus 0.20 USD a minute');
    expect(f).toContain('· approved: create_quick_ai_text to_numbers=+14155550100');
    expect(api.answers).toEqual([]); // nothing sent before every one is answered
    await type('n');
    await until('Why not? (told to the assistant; Enter to skip)');
    await type('too expensive');
    await until('reason › too expensive');
    await type(ENTER);
    f = await until('I did not do create_quick_ai_call: you declined.');
    expect(api.answers).toEqual([
      [
        { approval_id: 'apr_2_0', approved: true },
        { approval_id: 'apr_2_1', approved: false, reason: 'too expensive' },
      ],
    ]);
    expect(f).toContain('· declined: create_quick_ai_call to_numbers=+14155550101 (too expensive)');
    expect(f).toContain('✓ create_quick_ai_text to_numbers=+14155550100');
    // the decline shows once: the line its answer added, not again as an action (issue 33, point 6)
    expect(f).not.toContain('– create_quick_ai_call');
    expect(f.match(/too expensive/g)).toHaveLength(1);
  });

  it('keys typed faster than the terminal is read arrive as one piece: each y or n is a press of its own', async () => {
    const { api, until, type } = start();
    await type('text +14155550100 then call +14155550101', ENTER);
    await until('Approval 1 of 2: create_quick_ai_text');
    app!.stdin.write('yn'); // approves the first, declines the second and asks why
    await until('Why not? (told to the assistant; Enter to skip)');
    await type(ENTER);
    await until('I did not do create_quick_ai_call: you declined.');
    expect(api.answers).toEqual([
      [
        { approval_id: 'apr_2_0', approved: true },
        { approval_id: 'apr_2_1', approved: false },
      ],
    ]);
  });

  it('a decline without a reason (Enter skips it); other keys only say which ones answer', async () => {
    const { api, until, type } = start();
    await type('text +14155550100', ENTER);
    await until('Approval: create_quick_ai_text');
    await type('x');
    await until('y approves this action, n declines it');
    await type('n', ENTER);
    await until('I did not do create_quick_ai_text');
    expect(api.answers).toEqual([[{ approval_id: 'apr_2_0', approved: false }]]);
  });

  it('answers the service refuses are asked again, saying why', async () => {
    const api = new StandIn();
    api.refuseAnswers = true;
    const { until, type } = start({ api });
    await type('text +14155550100', ENTER);
    await until('Approval: create_quick_ai_text');
    await type('y');
    await until(
      /validation_error \(HTTP 400\): Every pending approval must be answered, in one request\. — answer\s+again\./,
    );
    await until('y approve · n decline');
    await type('y');
    await until('Done: create_quick_ai_text.');
    expect(api.answers).toEqual([[{ approval_id: 'apr_2_0', approved: true }]]);
  });

  it('--approve-all answers them as they come, and says so', async () => {
    const { api, until } = start({ policy: 'approve' });
    app!.stdin.write('text +14155550100');
    await new Promise((r) => setTimeout(r, 15));
    app!.stdin.write(ENTER);
    const f = await until('Done: create_quick_ai_text.');
    expect(f).toContain('· approved (--approve-all): create_quick_ai_text to_numbers=+14155550100');
    expect(api.answers).toEqual([[{ approval_id: 'apr_2_0', approved: true }]]);
  });
});

/** A stand-in whose quick jobs run until `end` ends them (as the service's job read shows them). */
class WithJobs extends StandIn {
  jobs = new Map<string, Record<string, unknown>>();
  reads = 0;
  end(id: string, target: Record<string, unknown>, cost_usd: number): void {
    const kind = this.jobs.get(id)?.kind ?? 'ai_call';
    this.jobs.set(id, { status: 'completed', kind, cost_usd, targets: [target] });
  }
  async ended(x: Started): Promise<string | null> {
    this.reads++;
    const kind = x.tool === 'create_quick_ai_call' ? 'ai_call' : 'ai_text';
    if (!this.jobs.has(x.id)) this.jobs.set(x.id, { status: 'running', kind, cost_usd: 0, targets: [] });
    return endedText(x, this.jobs.get(x.id)!);
  }
}

describe('the chat says what happened (issue 33, point 6)', () => {
  it('once a call it started ends, says so unasked: answered, goal achieved, the cost; once only', async () => {
    const api = new WithJobs();
    const { until, type, frame } = start({ api });
    await type('call +14155550101', ENTER);
    await until('Approval: create_quick_ai_call');
    await type('y');
    await until('Done: create_quick_ai_call.');
    await until(() => api.reads > 0);
    expect(frame()).not.toContain('has ended');
    api.end(
      'job_call_2_a0',
      { to_number: '+14155550101', status: 'completed', goal_achieved: true, end_reason: 'goal_achieved', attempts: 1 },
      0.43,
    );
    const f = await until('→ The call to +14155550101 has ended');
    expect(words(f)).toContain(
      '→ The call to +14155550101 has ended: +14155550101 answered, goal achieved; it cost 0.43 USD.',
    );
    const reads = api.reads;
    await new Promise((r) => setTimeout(r, 1200));
    expect(api.reads).toBe(reads); // ended: not read again
    expect(frame().match(/has ended/g)).toHaveLength(1);
  });
  it('a text thread that got no reply, and a call nobody answered, in its words', () => {
    const text: Started = { tool: 'create_quick_ai_text', id: 'j', what: '' };
    expect(
      endedText(text, {
        status: 'completed',
        kind: 'ai_text',
        cost_usd: 0.25,
        targets: [{ to_number: '+14155550100', status: 'no_answer', end_reason: 'max_messages' }],
      }),
    ).toBe('The text thread with +14155550100 has ended: +14155550100 did not reply (max_messages); it cost 0.25 USD.');
    const call: Started = { tool: 'create_quick_ai_call', id: 'j', what: '' };
    expect(
      endedText(call, {
        status: 'completed',
        kind: 'ai_call',
        cost_usd: 0.6,
        targets: [{ to_number: '+14155550100', status: 'no_answer', attempts: 3, end_reason: 'max_attempts' }],
      }),
    ).toBe(
      'The call to +14155550100 has ended: +14155550100 did not answer after 3 attempts (max_attempts); it cost 0.60 USD.',
    );
    expect(
      endedText(call, {
        status: 'completed',
        kind: 'ai_call',
        cost_usd: 0.27,
        targets: [{ to_number: '+14155550100', status: 'completed', goal_achieved: false, end_reason: 'answered' }],
      }),
    ).toBe(
      'The call to +14155550100 has ended: +14155550100 answered, goal not achieved (answered); it cost 0.27 USD.',
    );
    expect(endedText(call, { status: 'running', kind: 'ai_call', targets: [] })).toBeNull();
  });
});

describe("the chat's commands and leaving it", () => {
  it('/help, /list, /new, /open ID (its first characters), an unknown one', async () => {
    const { until, type, frame } = start();
    await type('/help', ENTER);
    await until('/open ID — continue a conversation');
    await type('hello', ENTER);
    await until('I can text, call');
    await type('/new', ENTER);
    await until('New conversation: your next message starts it.');
    expect(frame()).not.toContain('› hello');
    await type('/list', ENTER);
    // its time as every human view writes one (src/formats.ts)
    expect(await until('00000000  idle')).toMatch(/00000000 {2}idle +\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC {2}hello/);
    await type('/open 00000000-0000', ENTER);
    const f = await until('· conversation 00000000-0000-4000-8000-000000000001: hello');
    expect(f).toContain('› hello');
    expect(f).toContain('I can text, call, email and read your history.');
    await type('/frobnicate', ENTER);
    await until('Unknown command /frobnicate');
  });

  it('/quit and Ctrl-C when idle leave with nothing under way (exit 0)', async () => {
    const a = start();
    await a.type('/quit', ENTER);
    expect(a.ended).toEqual([{ conversationId: null }]);
    app!.unmount();
    const b = start();
    await b.type('hello', ENTER);
    await b.until('I can text, call');
    await b.type(CTRL_C);
    expect(b.ended).toEqual([{ conversationId: '00000000-0000-4000-8000-000000000001' }]);
  });

  it('Ctrl-C while the assistant works, or while approvals wait, says so (the command exits 130)', async () => {
    const api = new StandIn();
    api.hold = true;
    const a = start({ api });
    await a.type('hello', ENTER);
    await a.until('working ·');
    await a.type(CTRL_C);
    expect(a.ended).toEqual([{ conversationId: '00000000-0000-4000-8000-000000000001', interrupted: 'was working' }]);
    app!.unmount();
    const b = start();
    await b.type('text +14155550100', ENTER);
    await b.until('Approval: create_quick_ai_text');
    await b.type(CTRL_C);
    expect(b.ended[0].interrupted).toBe('waited for your approval');
  });

  it('--conversation resumes: the transcript, and approvals still pending', async () => {
    const api = new StandIn();
    const c = await api.post({ message: 'text +14155550100' });
    while ((await api.get(c.conversation_id)).status === 'working');
    const { until } = start({ api, resumed: await api.get(c.conversation_id) });
    const f = await until('Approval: create_quick_ai_text');
    expect(f).toContain('› text +14155550100');
  });
});

describe('the transcript scrolls', () => {
  it('PgUp shows earlier lines, PgDn comes back; a marker says what is hidden', async () => {
    const { until, type, frame } = start({ size: { columns: 60, rows: 12 } });
    for (let i = 1; i <= 4; i++) {
      await type(`hello ${i}`, ENTER);
      await until(`› hello ${i}\n`);
      await until(/I can text[^›]*›\s*\n/);
    }
    expect(frame()).toMatch(/↑ \d+ earlier lines \(PgUp\)/);
    expect(frame()).not.toContain('› hello 1');
    await type('\u001b[5~');
    await until('› hello 1');
    expect(frame()).toMatch(/↓ \d+ more lines \(PgDn\)/);
    await type('\u001b[6~');
    await until('› hello 4');
    expect(frame()).not.toMatch(/more lines \(PgDn\)/);
  });
});

describe('approvals, as keys come and as others answer them (review of bea6357, items 1, 2, 12)', () => {
  it('y pressed again while the answers are on their way does nothing: they are sent once, and nothing breaks', async () => {
    const api = new StandIn();
    api.answerDelay = 150;
    const { until, type, ended } = start({ api });
    await type('text +14155550100', ENTER);
    await until('Approval: create_quick_ai_text');
    // a double tap: the second y before the screen is drawn again
    app!.stdin.write('y');
    app!.stdin.write('y');
    const f = await until('sending your answers…');
    expect(f.split('\n').at(-1)).toBe('Ctrl-C leave');
    await type('y'); // and once more, while the screen says they are being sent
    const done = await until('Done: create_quick_ai_text.');
    expect(api.answers).toEqual([[{ approval_id: 'apr_2_0', approved: true }]]);
    expect(done).not.toMatch(/conflict|answer again|TypeError/);
    expect(ended).toEqual([]);
  });

  it('approvals answered elsewhere meanwhile (vmv assistant approve): y reads the conversation again and goes on from where it is, not asking again', async () => {
    const { api, until, type, ended } = start();
    await type('text +14155550100', ENTER);
    await until('Approval: create_quick_ai_text');
    const id = '00000000-0000-4000-8000-000000000001';
    await api.post({ conversation_id: id, approvals: [{ approval_id: 'apr_2_0', approved: true }] }); // another shell
    await type('y');
    const f = await until('Done: create_quick_ai_text.');
    expect(words(f)).toMatch(
      /conflict \(HTTP 409\): No approval is pending in this conversation\. — read again: (the assistant is working on it|it is idle)\./,
    );
    expect(f).not.toContain('answer again');
    expect(f).toContain('✓ create_quick_ai_text to_numbers=+14155550100');
    expect(f.split('\n').at(-1)).toMatch(/^Enter send/);
    expect(api.answers).toHaveLength(1); // the other shell's: this chat's were not taken
    // the chat takes messages again, and leaving it is leaving nothing under way
    await type('hello', ENTER);
    await until('I can text, call');
    await type(CTRL_C);
    expect(ended).toEqual([{ conversationId: id }]);
  });

  it("a run started elsewhere while the chat was idle: the message's 409 reads the conversation again, and the chat follows that run (the line kept)", async () => {
    const { api, until, type } = start();
    await type('hello', ENTER);
    await until('I can text, call');
    api.hold = true;
    await api.post({
      conversation_id: '00000000-0000-4000-8000-000000000001',
      message: 'how many calls did we get yesterday?',
    });
    await type('and today?', ENTER);
    const f = await until(/working · \d+s/);
    expect(words(f)).toContain(
      'conflict (HTTP 409): The assistant is still working on this conversation; read it until it is idle, then send again. — read again: the assistant is working on it.',
    );
    expect(f).toContain('› and today?');
    api.hold = false;
    await until('You got 2 inbound calls yesterday.');
  });

  it('while a reason is typed, the keys line says what Enter does then', async () => {
    const { until, type, frame } = start();
    await type('text +14155550100', ENTER);
    await until('Approval: create_quick_ai_text');
    await type('n');
    await until('Why not?');
    expect(frame().split('\n').at(-1)).toBe('Enter answer (empty: no reason) · Ctrl-U clear · Ctrl-C leave');
  });
});

describe('a paste (review item 8)', () => {
  it('several lines at once are one message, none of them lost; the transcript shows each', async () => {
    const { api, until, type } = start();
    await type('how many calls did we get yesterday?\rand who texted us today?\r');
    const f = await until('You got 2 inbound calls yesterday.');
    expect([...api.conversations.values()][0].transcript[0].content).toBe(
      'how many calls did we get yesterday?\nand who texted us today?',
    );
    expect(f).toContain('› how many calls did we get yesterday?\n  and who texted us today?\n');
  });

  it('a paste that does not end with a line break waits on the input line (its breaks shown as ↵) for Enter', async () => {
    const { api, until, type } = start();
    await type('how many calls\rdid we get yesterday?');
    await until('› how many calls↵did we get yesterday?');
    expect(api.conversations.size).toBe(0);
    await type(ENTER);
    await until('You got 2 inbound calls yesterday.');
  });

  it("a reason and its Enter in one piece (tmux send-keys 'not now' Enter) answer the decline", async () => {
    const { api, until, type } = start();
    await type('text +14155550100', ENTER);
    await until('Approval: create_quick_ai_text');
    await type('n');
    await until('Why not?');
    await type('not now\r');
    await until('I did not do create_quick_ai_text: you declined.');
    expect(api.answers).toEqual([[{ approval_id: 'apr_2_0', approved: false, reason: 'not now' }]]);
  });
});

describe('the screen keeps within the terminal (review items 6, 9, 12)', () => {
  const size = { columns: 60, rows: 20 };

  it('a message in Chinese with emoji at 60x20: every line within the width, nothing lost, the header stays; the input line shows its end', async () => {
    const message =
      '请帮我查一下昨天我们接到了多少个电话😀🎉谢谢你的帮助我非常感激你为我们做的一切工作真的非常感谢你们的团队';
    const { until, type, frame } = start({ size });
    await type(message);
    await until('团队');
    const typing = fits(frame(), size);
    expect(typing.at(-2)).toMatch(/^› .*你们的团队$/);
    await type(ENTER);
    const f = await until('I can text, call');
    const lines = fits(f, size);
    expect(lines[0]).toMatch(/^vmv assistant · 请帮我/);
    expect(lines[0]).toContain('· 00000000');
    // the message whole, over the lines it was wrapped to
    expect(f.replace(/[\s›]/g, '')).toContain(message);
    expect(lines.at(-2)).toBe('›');
    // ← moves over one wide character at a time
    await type('好的 ok', '\u001b[D', '\u001b[D', '\u001b[D', 'x');
    await until('› 好的x ok');
  });

  it("a long approval at 60x20: the header, the approval's title, its y/n and the keys stay on the screen; the reason is cut to fit, saying so", async () => {
    const goal = `confirm ${'the appointment on Tuesday at ten in the morning, '.repeat(13)}thanks`;
    const { until, type } = start({ size });
    await type(`text +14155550100 about ${goal}`, ENTER);
    const f = await until('Approval: create_quick_ai_text');
    const lines = fits(f, size);
    expect(lines[0]).toMatch(/^vmv assistant · text \+14155550100 about confirm .*· 00000000$/);
    // its start and its end (what it costs); between them a gap, which the line before it marks
    expect(words(f)).toContain(
      'Approval: create_quick_ai_text Starts an AI text conversation with +14155550100 toward "confirm the appointment on Tuesday',
    );
    expect(words(f)).toMatch(
      / … (\w+ )+the morning, thanks": 0\.05 USD per message the agent sends, from the wallet\. y approve · n decline/,
    );
    expect(lines.at(-2)).toBe('y approve · n decline');
    expect(lines.at(-1)).toBe('Ctrl-C leave');
  });

  it("a long title gives way in the header: the conversation's id and the clock note stay", async () => {
    const { until, type } = start({ size, manualClock: true, advance: true });
    await type('please tell me how many calls did we get yesterday, and the day before that too', ENTER);
    const f = await until('You got 2 inbound calls');
    expect(fits(f, size)[0]).toMatch(/^vmv assistant · please tell me.*… · 00000000 · manual clock$/);
  });
});
