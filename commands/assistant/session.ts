// The few calls the assistant verbs make, behind one interface (AssistantApi) so the chat's UI can be
// driven by a stand-in in its tests, and the one way a run is followed until it stops working:
// reading the conversation again and again, or on a simulator whose clock is manual, moving the clock
// to each next due transition (as --advance does for every other wait).
import type { Context } from '../../src/context.js';
import type { Conversation, ConversationWithTranscript, MessageBody } from './view.js';
import { advanceTo, type SimClock } from '../../src/wait.js';
import { endedText, startedBy, startedPath, type Started } from './outcome.js';

export interface ClockState extends SimClock {
  mode: 'manual' | 'real';
}

export interface AssistantApi {
  /** POST /v1/assistant/messages: a message, or the answers to every pending approval */
  post(body: MessageBody): Promise<Conversation>;
  /** GET /v1/assistant/conversations/{id} */
  get(id: string): Promise<ConversationWithTranscript>;
  /** the first page of GET /v1/assistant/conversations, newest first */
  list(limit?: number): Promise<Conversation[]>;
  /** the simulator's clock (GET /_sim/clock); null on a service, which has no control plane */
  clock(): Promise<ClockState | null>;
  /** moves a manual simulator clock to its next due transition; false when nothing is due (or the clock is real) */
  advance(): Promise<boolean>;
  /** whether something the run started (a quick call or text job, a video) is still going on */
  unfinished?(c: Conversation): Promise<boolean>;
  /** what the chat says once something a run started has ended (outcome.ts); null while it goes on */
  ended?(x: Started): Promise<string | null>;
}

export const conversationPath = (id: string) => `/v1/assistant/conversations/${encodeURIComponent(id)}`;

/**
 * The API through a command's context. `own` names the post the command stands for (send's
 * message, approve's answers): it takes the command's Idempotency-Key (--idempotency-key); every
 * other post (the chat's many messages, answers given along the way) takes a key of its own.
 */
export function contextApi(ctx: Context, o: { own?: 'message' | 'approvals' } = {}): AssistantApi {
  const api: AssistantApi = {
    post: async (body) => {
      const own = o.own !== undefined && body[o.own] !== undefined;
      return (
        await ctx.call('POST', '/v1/assistant/messages', own ? { body } : { body, idempotencyKey: undefined })
      ).json<{ data: Conversation }>().data;
    },
    get: async (id) => (await ctx.call('GET', conversationPath(id))).json<{ data: ConversationWithTranscript }>().data,
    list: async (limit = 10) =>
      (await ctx.call('GET', '/v1/assistant/conversations', { query: { limit } })).json<{ data: Conversation[] }>()
        .data,
    async clock() {
      const res = await (await ctx.client()).request('GET', '/_sim/clock').catch(() => null);
      if (res?.status !== 200) return null;
      try {
        const c = res.json<ClockState>();
        return c.mode === 'manual' || c.mode === 'real' ? c : null;
      } catch {
        return null;
      }
    },
    async advance() {
      const c = await api.clock();
      return c?.mode === 'manual' ? advanceTo(ctx, c) : false;
    },
    async unfinished(c) {
      for (const x of startedBy(c)) if ((await api.ended!(x)) === null) return true;
      return false;
    },
    async ended(x) {
      return endedText(x, (await ctx.call('GET', startedPath(x))).json<{ data: Record<string, unknown> }>().data);
    },
  };
  return api;
}

export interface Follow {
  /** move a manual clock to each next due transition instead of only waiting for it to move */
  advance: boolean;
  /** how long to sleep between reads while the clock moves by itself (or nothing is due) */
  pollMs: number;
  /** after moving the clock, how long to sleep before reading (the chat paces the steps so they are seen; scripts do not) */
  paceMs?: number;
  /** sleeps (a waiter's pause, which Ctrl-C and a deadline end) */
  pause: (ms: number) => Promise<void>;
  /** each read of the conversation, as it comes */
  onRead?: (c: ConversationWithTranscript) => void;
  /** wall-clock time (ms since the epoch) to stop at, still working; null: no limit */
  deadline?: number | null;
  /** asked before each read: true stops following (the chat switched conversations or quit) */
  stopped?: () => boolean;
  /**
   * with `advance`, once the run is idle keep moving the manual clock until what it started (a quick
   * call or text, a video) has ended, so that the next question finds them done (the chat)
   */
  untilActionsEnd?: boolean;
}

/** Reads the conversation until its run stops working (or the deadline passes): the last read. */
export async function followRun(api: AssistantApi, c: Conversation, f: Follow): Promise<Conversation> {
  let last = c;
  while (last.status === 'working') {
    if (f.deadline != null && Date.now() >= f.deadline) break;
    const moved = f.advance && (await api.advance());
    const ms = moved ? (f.paceMs ?? 0) : f.pollMs;
    if (ms > 0) await f.pause(ms);
    if (f.stopped?.()) break;
    const read = await api.get(last.conversation_id);
    f.onRead?.(read);
    last = read;
  }
  if (f.advance && f.untilActionsEnd && last.status === 'idle') await settleActions(api, last, f);
  return last;
}

/** Moves a manual clock, one due transition at a time, until nothing the run started goes on (or nothing is due). */
async function settleActions(api: AssistantApi, c: Conversation, f: Follow): Promise<void> {
  while (!f.stopped?.() && (f.deadline == null || Date.now() < f.deadline)) {
    if (!(await api.unfinished?.(c))) return;
    if (!(await api.advance())) return;
    if (f.paceMs) await f.pause(f.paceMs);
  }
}

/** The actions of a read not seen before (by tool_call_id), recording them as seen. */
export function newActions<T extends { tool_call_id: string; status: string }>(
  actions: readonly T[],
  seen: Set<string>,
): T[] {
  const fresh = actions.filter((a) => !seen.has(a.tool_call_id));
  for (const a of fresh) seen.add(a.tool_call_id);
  return fresh;
}
