// The assistant chat's screen as lines (commands/assistant/ui/layout.ts), from a state and the
// terminal's size, as tables: each kind of transcript entry's prefix and style; then whole screens,
// what each phase shows below the transcript, the header giving way to the width, the transcript
// scrolled and cut to the height with what is left out said, what is cut first when the screen is
// short, and where the cursor is. Every screen is checked to fit its height and (but for the notes
// of what is scrolled out, which the drawn line cuts) its width.
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { layout, transcriptLines, type Line, type View } from '../commands/assistant/ui/layout.js';
import {
  initialState,
  reduce,
  WELCOME,
  type ChatAction,
  type ChatState,
  type Entry,
} from '../commands/assistant/ui/state.js';
import type { Conversation, PendingApproval } from '../commands/assistant/view.js';

const T0 = Date.parse('2026-01-05T09:00:00Z');
const ID = '0f1e2d3c-0000-4000-8000-000000000001';

/** A conversation as the service answers it, with what the row needs changed. */
const conversation = (o: Partial<Conversation> = {}): Conversation => ({
  conversation_id: ID,
  title: 'who texted us today?',
  status: 'idle',
  run_id: 'run_1',
  reply: '',
  actions: [],
  pending_approvals: [],
  error: null,
  not_understood: [],
  updated_at: '2026-01-05T09:00:00Z',
  created_at: '2026-01-05T09:00:00Z',
  ...o,
});

const approval = (n: number, reason: string): PendingApproval => ({
  approval_id: `apr_${n}`,
  tool_call_id: `call_${n}`,
  tool: 'create_quick_ai_text',
  input: { to_numbers: [`+1415555010${n}`], goal: 'ask whether Tuesday works' },
  reason,
});

const REASON =
  'Starts an AI text conversation with +14155550100 toward "ask whether Tuesday works": 0.05 USD per message the agent sends, from the wallet.';

/** The state a chat is in after these actions, from its first screen. */
const after = (...actions: ChatAction[]): ChatState => actions.reduce(reduce, initialState(WELCOME));

const sent = (text: string, c: Partial<Conversation>): ChatAction => ({
  type: 'sent',
  text,
  conversation: conversation(c),
  now: T0,
});
const asked = sent('text +14155550100 and +14155550101 and ask whether Tuesday works', {
  status: 'awaiting_approval',
  reply: 'Before I go on I need your approval for these 2 actions.',
  pending_approvals: [approval(0, REASON), approval(1, REASON)],
});
const titled = sent('a very long question about all the calls we got yesterday and the day before', {
  reply: 'ok',
  title: 'a very long question about all the calls we got yesterday and the day before',
});
const working = sent('how many calls did we get yesterday?', {
  status: 'working',
  title: 'how many calls did we get yesterday?',
});
const read: ChatAction = {
  type: 'read',
  conversation: conversation({
    status: 'working',
    title: 'how many calls did we get yesterday?',
    reply: 'Looking at the calls of yesterday, inbound and outbound, one page at a time.',
    actions: [
      {
        tool_call_id: 'call_1',
        tool: 'list_calls',
        status: 'completed',
        input: { direction: 'inbound' },
        output: {},
        error: null,
      },
    ],
  }),
};
const CONFLICT =
  'conflict (HTTP 409): The assistant is still working on this conversation; read it until it is idle, then send again. Another line of words to need a fourth.';
const talk = Array.from({ length: 6 }, (_, i) => sent(`question ${i + 1}`, { reply: `answer ${i + 1}` }));

interface Row {
  name: string;
  state: ChatState;
  size: View['size'];
  view?: Partial<View>;
  lines: string[];
  /** where the cursor is: absent while no input line shows */
  cursor?: { x: number; y: number };
}

const ROWS: Row[] = [
  {
    name: 'a new conversation: the welcome, the empty input line and the keys; the rows left over stay blank',
    state: after(),
    size: { columns: 60, rows: 12 },
    lines: [
      'vmv assistant · new conversation',
      '· Ask in plain English: "how many calls did we get',
      '  yesterday?", "text +14155550100 and ask whether Tuesday',
      '  works". Actions that cost money or cannot be undone wait',
      '  for your approval. /help lists the commands and keys.',
      '',
      '',
      '',
      '',
      '› ',
      'Enter send · ↑↓ history · PgUp/PgDn scroll · /help · Ctrl-C…',
    ],
    cursor: { x: 2, y: 9 },
  },
  {
    name: 'a terminal smaller than 20x8 is drawn at 20x8: the header and the keys cut, the transcript says what is above it',
    state: after(),
    size: { columns: 10, rows: 5 },
    lines: [
      'vmv assistant · new…',
      '↑ 10 earlier lines (PgUp)',
      '  your approval.',
      '  /help lists the',
      '  commands and keys.',
      '› ',
      'Enter send · ↑↓ his…',
    ],
    cursor: { x: 2, y: 5 },
  },
  {
    name: 'the header: the title gives way to the id and the clock note',
    state: after(titled),
    size: { columns: 100, rows: 8 },
    view: { manualClock: true, advance: true },
    lines: [
      'vmv assistant · a very long question abo… · 0f1e2d3c · manual clock: moved while the assistant works',
      '↑ 3 earlier lines (PgUp)',
      '',
      '› a very long question about all the calls we got yesterday and the day before',
      '  ok',
      '› ',
      'Enter send · ↑↓ history · PgUp/PgDn scroll · /help · Ctrl-C leave',
    ],
    cursor: { x: 2, y: 5 },
  },
  {
    name: 'the header, narrower: the clock note in its short form',
    state: after(titled),
    size: { columns: 64, rows: 8 },
    view: { manualClock: true, advance: false },
    lines: [
      'vmv assistant · a very long question … · 0f1e2d3c · manual clock',
      '↑ 5 earlier lines (PgUp)',
      '› a very long question about all the calls we got yesterday and',
      '  the day before',
      '  ok',
      '› ',
      'Enter send · ↑↓ history · PgUp/PgDn scroll · /help · Ctrl-C lea…',
    ],
    cursor: { x: 2, y: 5 },
  },
  {
    name: 'the header, narrower still: the title and the id only',
    state: after(titled),
    size: { columns: 50, rows: 8 },
    view: { manualClock: true, advance: false },
    lines: [
      'vmv assistant · a very long question about all th…',
      '↑ 6 earlier lines (PgUp)',
      '› a very long question about all the calls we got',
      '  yesterday and the day before',
      '  ok',
      '› ',
      'Enter send · ↑↓ history · PgUp/PgDn scroll · /hel…',
    ],
    cursor: { x: 2, y: 5 },
  },
  {
    name: 'a run working: the spinner, for how long, the actions done and the clock; the end of its reply so far',
    state: after(working, read),
    size: { columns: 60, rows: 12 },
    view: { now: T0 + 12_500, tick: 3, manualClock: true, advance: true },
    lines: [
      'vmv assistant · how many calls di… · 0f1e2d3c · manual clock',
      '↑ 3 earlier lines (PgUp)',
      '  for your approval. /help lists the commands and keys.',
      '',
      '› how many calls did we get yesterday?',
      '  ✓ list_calls direction=inbound',
      '⠸ working · 12s · 1 action done · moving the clock',
      '  Looking at the calls of yesterday, inbound and outbound,',
      '  one page at a time.',
      '› ',
      'Enter send · ↑↓ history · PgUp/PgDn scroll · /help · Ctrl-C…',
    ],
    cursor: { x: 2, y: 9 },
  },
  {
    name: 'a run working on a manual clock the chat does not move',
    state: after(working),
    size: { columns: 60, rows: 12 },
    view: { now: T0 + 1_000, manualClock: true, advance: false },
    lines: [
      'vmv assistant · how many calls di… · 0f1e2d3c · manual clock',
      '· Ask in plain English: "how many calls did we get',
      '  yesterday?", "text +14155550100 and ask whether Tuesday',
      '  works". Actions that cost money or cannot be undone wait',
      '  for your approval. /help lists the commands and keys.',
      '',
      '› how many calls did we get yesterday?',
      '',
      '⠋ working · 1s · waiting for the clock (vmv sim advance)',
      '› ',
      'Enter send · ↑↓ history · PgUp/PgDn scroll · /help · Ctrl-C…',
    ],
    cursor: { x: 2, y: 9 },
  },
  {
    name: 'an approval asked: which of how many, the tool, its reason and input; y or n, no input line',
    state: after(asked),
    size: { columns: 60, rows: 16 },
    lines: [
      'vmv assistant · who texted us today? · 0f1e2d3c',
      '↑ 2 earlier lines (PgUp)',
      '  works". Actions that cost money or cannot be undone wait',
      '  for your approval. /help lists the commands and keys.',
      '',
      '› text +14155550100 and +14155550101 and ask whether Tuesday',
      '  works',
      '  Before I go on I need your approval for these 2 actions.',
      'Approval 1 of 2: create_quick_ai_text',
      '  Starts an AI text conversation with +14155550100 toward',
      '  "ask whether Tuesday works": 0.05 USD per message the',
      '  agent sends, from the wallet.',
      '  to_numbers=+14155550100 goal="ask whether Tuesday works"',
      'y approve · n decline',
      'Ctrl-C leave',
    ],
  },
  {
    name: 'an approval on a short screen: its input goes first',
    state: after(asked),
    size: { columns: 60, rows: 10 },
    lines: [
      'vmv assistant · who texted us today? · 0f1e2d3c',
      '↑ 7 earlier lines (PgUp)',
      '  Before I go on I need your approval for these 2 actions.',
      'Approval 1 of 2: create_quick_ai_text',
      '  Starts an AI text conversation with +14155550100 toward',
      '  "ask whether Tuesday works": 0.05 USD per message the',
      '  agent sends, from the wallet.',
      'y approve · n decline',
      'Ctrl-C leave',
    ],
  },
  {
    name: 'an approval on a shorter screen: its reason keeps its start and its end (what it costs)',
    state: after(asked),
    size: { columns: 60, rows: 8 },
    lines: [
      'vmv assistant · who texted us today? · 0f1e2d3c',
      '↑ 8 earlier lines (PgUp)',
      'Approval 1 of 2: create_quick_ai_text',
      '  Starts an AI text conversation with +14155550100 toward …',
      '  agent sends, from the wallet.',
      'y approve · n decline',
      'Ctrl-C leave',
    ],
  },
  {
    name: "a decline's reason being typed, on the input line after the question",
    state: after(asked, { type: 'approve' }, { type: 'decline' }, { type: 'insert', text: 'not this week' }),
    size: { columns: 60, rows: 16 },
    lines: [
      'vmv assistant · who texted us today? · 0f1e2d3c',
      '↑ 5 earlier lines (PgUp)',
      '› text +14155550100 and +14155550101 and ask whether Tuesday',
      '  works',
      '  Before I go on I need your approval for these 2 actions.',
      '· approved: create_quick_ai_text to_numbers=+14155550100',
      '  goal="ask whether Tuesday works"',
      'Approval 2 of 2: create_quick_ai_text',
      '  Starts an AI text conversation with +14155550100 toward',
      '  "ask whether Tuesday works": 0.05 USD per message the',
      '  agent sends, from the wallet.',
      '  to_numbers=+14155550101 goal="ask whether Tuesday works"',
      'Why not? (told to the assistant; Enter to skip)',
      'reason › not this week',
      'Enter answer (empty: no reason) · Ctrl-U clear · Ctrl-C lea…',
    ],
    cursor: { x: 22, y: 13 },
  },
  {
    name: 'every approval answered: the answers on their way',
    state: after(asked, { type: 'approve' }, { type: 'approve' }),
    size: { columns: 60, rows: 12 },
    lines: [
      'vmv assistant · who texted us today? · 0f1e2d3c',
      '↑ 5 earlier lines (PgUp)',
      '› text +14155550100 and +14155550101 and ask whether Tuesday',
      '  works',
      '  Before I go on I need your approval for these 2 actions.',
      '· approved: create_quick_ai_text to_numbers=+14155550100',
      '  goal="ask whether Tuesday works"',
      '· approved: create_quick_ai_text to_numbers=+14155550101',
      '  goal="ask whether Tuesday works"',
      'sending your answers…',
      'Ctrl-C leave',
    ],
  },
  {
    name: 'a notice: three lines at most, the third saying there is more',
    state: after({ type: 'notice', kind: 'error', text: CONFLICT }),
    size: { columns: 40, rows: 14 },
    lines: [
      'vmv assistant · new conversation',
      '· Ask in plain English: "how many calls',
      '  did we get yesterday?", "text',
      '  +14155550100 and ask whether Tuesday',
      '  works". Actions that cost money or',
      '  cannot be undone wait for your',
      '  approval. /help lists the commands and',
      '  keys.',
      'conflict (HTTP 409): The assistant is',
      'still working on this conversation; read',
      'it until it is idle, then send again. …',
      '› ',
      'Enter send · ↑↓ history · PgUp/PgDn scr…',
    ],
    cursor: { x: 2, y: 11 },
  },
  {
    name: 'a long transcript: its end, what is above it said',
    state: after(...talk),
    size: { columns: 40, rows: 10 },
    lines: [
      'vmv assistant · who texted u… · 0f1e2d3c',
      '↑ 20 earlier lines (PgUp)',
      '› question 5',
      '  answer 5',
      '',
      '› question 6',
      '  answer 6',
      '› ',
      'Enter send · ↑↓ history · PgUp/PgDn scr…',
    ],
    cursor: { x: 2, y: 7 },
  },
  {
    name: 'a long transcript scrolled up: what is below it said too',
    state: after(...talk, { type: 'scroll', by: 3, max: 100 }),
    size: { columns: 40, rows: 10 },
    lines: [
      'vmv assistant · who texted u… · 0f1e2d3c',
      '↑ 17 earlier lines (PgUp)',
      '› question 4',
      '  answer 4',
      '',
      '› question 5',
      '↓ 4 more lines (PgDn)',
      '› ',
      'Enter send · ↑↓ history · PgUp/PgDn scr…',
    ],
    cursor: { x: 2, y: 7 },
  },
  {
    name: 'an input line wider than the screen: the part around the cursor',
    state: after(
      { type: 'insert', text: 'text +14155550100 and ask whether Tuesday works for the meeting' },
      { type: 'move', to: 'home' },
      { type: 'move', to: 'right' },
    ),
    size: { columns: 30, rows: 8 },
    lines: [
      'vmv assistant · new conversat…',
      '↑ 6 earlier lines (PgUp)',
      '  undone wait for your',
      '  approval. /help lists the',
      '  commands and keys.',
      '› text +14155550100 and ask w',
      'Enter send · ↑↓ history · PgU…',
    ],
    cursor: { x: 3, y: 5 },
  },
];

/** Each kind of transcript entry: how its first line starts, and its style. */
const ENTRIES: [Entry['kind'], string, Omit<Line, 'text'>][] = [
  ['user', '› ', { color: 'cyan', bold: true }],
  ['assistant', '  ', {}],
  ['action', '  ', { color: 'green', dim: true }],
  ['declined', '  ', { color: 'yellow' }],
  ['failed', '! ', { color: 'red' }],
  ['error', '! ', { color: 'red' }],
  ['note', '· ', { dim: true }],
  ['outcome', '→ ', { color: 'magenta' }],
];

describe('the transcript (transcriptLines)', () => {
  it.each(ENTRIES)(
    '%s: its first line starts with "%s", every line in its style, the next lines indented',
    (kind, prefix, style) => {
      const lines = transcriptLines(
        [
          { kind: 'note', text: 'first' },
          { kind, text: 'one two three four five six seven eight nine ten eleven' },
        ],
        20,
      );
      // a message of the user's after the first entry is set apart by a blank line
      const own = lines.slice(kind === 'user' ? 2 : 1);
      expect(own.map((l) => l.text)).toEqual([
        `${prefix}one two three four`,
        '  five six seven',
        '  eight nine ten',
        '  eleven',
      ]);
      for (const l of own) expect(l).toEqual({ text: l.text, ...style });
      if (kind === 'user') expect(lines[1]).toEqual({ text: '' });
    },
  );
});

describe('the chat screen (layout)', () => {
  it.each(ROWS)('$name', ({ state, size, view, lines, cursor }) => {
    const screen = layout(state, { size, now: T0, tick: 0, manualClock: false, advance: false, ...view });
    expect(screen.lines.map((l) => l.text)).toEqual(lines);
    expect(screen.cursor).toEqual(cursor);
    // (the transcript's notes of what is above and below it may be wider: the line drawing them cuts them)
    for (const l of screen.lines)
      if (!/^[↑↓] /.test(l.text)) expect(stringWidth(l.text)).toBeLessThanOrEqual(Math.max(20, size.columns));
    expect(screen.lines.length).toBeLessThanOrEqual(Math.max(8, size.rows) - 1);
  });
});
