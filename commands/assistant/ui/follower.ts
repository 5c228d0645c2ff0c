// The chat's run follower (a hook, useRunFollower): sends what the chat says to the assistant (a
// message, the answers to its approvals) and follows the run each one starts until it stops working,
// reading the conversation again and again and, on a simulator with a manual clock, moving the clock
// (followRun in ../session.ts); approvals are answered by policy with --approve-all / --decline-all.
// It tells the chat what happened through the reducer's actions (ui/state.ts), and stops following
// when the chat moves to another conversation, starts another run, or ends.
import { useEffect, useRef } from 'react';
import { ApiCallError } from '../../../src/errors.js';
import { startedBy, type Started } from '../outcome.js';
import { followRun, type AssistantApi } from '../session.js';
import type { ApprovalAnswer, Conversation, ConversationWithTranscript } from '../view.js';
import { allAnswered, answerText, type ChatAction, type ChatState } from './state.js';

export interface FollowerOptions {
  api: AssistantApi;
  /** move a manual simulator clock while a run works */
  advance: boolean;
  pollMs: number;
  paceMs: number;
  /** approvals answered without asking (--approve-all, --decline-all), and a decline's reason */
  policy?: 'approve' | 'decline';
  reason?: string;
  /** makes a change of the chat's state */
  act: (a: ChatAction) => void;
  /** the chat's state as of the last change (not the last render) */
  state: () => ChatState;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** An error as one line: the API's message and code (a 409 conflict reads as such), or the error's own message. */
export function errorText(e: unknown): string {
  if (e instanceof ApiCallError) return `${e.code} (HTTP ${e.status}): ${e.envelope.error.message}`;
  return (e as Error)?.message ?? String(e);
}

/** The service refused a request as out of date: the conversation moved on without this chat. */
const isConflict = (e: unknown) => e instanceof ApiCallError && e.status === 409;

/** Where a conversation read again stands, in words. */
const STANDING: Record<string, string> = {
  working: 'the assistant is working on it',
  idle: 'it is idle',
  awaiting_approval: 'approvals wait',
  failed: 'its run failed',
};

/**
 * The follower of one chat, kept for the chat's life (useRunFollower), with its options as of the
 * last render. A follow in flight belongs to a generation: once the generation moves on (stop, a new
 * run, another conversation), what it reads is no longer the chat's and it stops.
 */
export class RunFollower {
  private generation = 0;
  /** a message is on its way: another Enter sends nothing until it is taken or refused */
  private posting = false;
  /** what runs started that goes on, by id, until its end is said; and the ids whose end was said */
  private watching = new Map<string, Started>();
  private told = new Set<string>();
  private watcher: Promise<void> | null = null;
  private closed = false;

  constructor(public options: FollowerOptions) {}

  /** Stops following what is followed now (the chat moves on, or ends). */
  stop(): void {
    this.generation++;
  }

  /** The chat ends: nothing is followed or watched any more. */
  close(): void {
    this.closed = true;
    this.stop();
  }

  /**
   * Watches what an idle run started (quick calls and texts, videos) until each has ended, whatever
   * the chat does meanwhile, and says each end once, unasked: answered? the goal achieved? the cost.
   * On a manual clock the follow has already moved the clock to their ends; else the clock moves them.
   */
  private watch(c: Conversation): void {
    if (!this.options.api.ended) return;
    for (const x of startedBy(c)) if (!this.told.has(x.id)) this.watching.set(x.id, x);
    this.watcher ??= this.watchAll().finally(() => {
      this.watcher = null;
    });
  }

  private async watchAll(): Promise<void> {
    const { api, act, pollMs } = this.options;
    while (!this.closed && this.watching.size > 0) {
      for (const x of [...this.watching.values()]) {
        const said = await api.ended!(x).catch(() => undefined);
        if (said === null) continue;
        // ended, or unreadable (deleted, the service gone): not watched any more
        this.watching.delete(x.id);
        this.told.add(x.id);
        if (said && !this.closed) act({ type: 'entries', entries: [{ kind: 'outcome', text: said }] });
      }
      if (this.watching.size > 0) await sleep(Math.max(pollMs, 1000));
    }
  }

  /** Shows a conversation (read again, or resumed) and carries on with whatever it is in the middle of. */
  async open(c: ConversationWithTranscript): Promise<void> {
    this.generation++;
    this.options.act({ type: 'opened', conversation: c, now: Date.now() });
    await this.carryOn(c);
  }

  /** Sends a message; refused, the line stays in the input, to send again once the conversation takes it. */
  async send(text: string): Promise<void> {
    if (this.posting) return;
    this.posting = true;
    const { api, act, state } = this.options;
    const before = state();
    const id = before.conversation?.conversation_id;
    let c: Conversation;
    try {
      c = await api.post({ message: text, conversation_id: id, wait_seconds: 0 });
    } catch (e) {
      this.posting = false;
      // a conflict where this chat saw nothing going on means another client moved the conversation on: read it again
      if (isConflict(e) && id && before.phase.step === 'idle') return this.reread(id, e);
      act({ type: 'notice', kind: 'error', text: errorText(e) });
      return;
    }
    this.posting = false;
    act({ type: 'sent', text, conversation: c, now: Date.now() });
    await this.carryOn(c);
  }

  /** An approval's answer (y, or the reason of an n); once every one has its answer, they are sent together, once. */
  answer(a: ChatAction): void {
    const { act, state } = this.options;
    const before = state();
    act(a);
    const after = state().phase;
    if (after !== before.phase && after.step === 'approving' && allAnswered(after) && before.conversation)
      void this.sendAnswers(before.conversation.conversation_id, after.answers);
  }

  /** Follows a run until it stops working, then adds what it did and asks for its approvals. */
  private async follow(c: Conversation): Promise<void> {
    const mine = ++this.generation;
    const { api, act, advance, pollMs, paceMs, policy } = this.options;
    try {
      const last = await followRun(api, c, {
        advance,
        // the chat moves a manual clock on until what the run started has ended (a call, a text thread, a video)
        untilActionsEnd: true,
        pollMs,
        paceMs,
        pause: sleep,
        stopped: () => mine !== this.generation,
        onRead: (read) => mine === this.generation && act({ type: 'read', conversation: read }),
      });
      if (mine !== this.generation) return;
      act({ type: 'settled', conversation: last });
      if (last.status === 'idle') this.watch(last);
      if (last.status === 'awaiting_approval' && policy) await this.answerByPolicy(last);
    } catch (e) {
      const id = c.conversation_id.slice(0, 8);
      if (mine === this.generation)
        act({ type: 'lost', text: `${errorText(e)} — the run may go on; /open ${id} reads it again.` });
    }
  }

  /** After the service took a message or answers: follow the run, or answer the approvals it asks for by policy. */
  private async carryOn(c: Conversation): Promise<void> {
    if (c.status === 'working') await this.follow(c);
    else if (c.status === 'awaiting_approval' && this.options.policy) await this.answerByPolicy(c);
  }

  private async answerByPolicy(c: Conversation): Promise<void> {
    const { act, policy, reason } = this.options;
    const approve = policy === 'approve';
    const flag = approve ? '--approve-all' : '--decline-all';
    act({
      type: 'entries',
      entries: c.pending_approvals.map((p) => ({
        kind: 'note',
        text: `${approve ? 'approved' : 'declined'} (${flag}): ${answerText(p)}`,
      })),
    });
    await this.sendAnswers(
      c.conversation_id,
      c.pending_approvals.map((p) => ({
        approval_id: p.approval_id,
        approved: approve,
        ...(!approve && reason ? { reason } : {}),
      })),
    );
  }

  /**
   * The service refused what this chat sent as out of date (409 conflict: the approvals were
   * answered elsewhere, or another client started a run): the conversation is read again, and the
   * chat goes on from where it really stands.
   */
  private async reread(id: string, e: unknown): Promise<void> {
    const mine = this.generation;
    const { api, act } = this.options;
    try {
      const c = await api.get(id);
      if (mine !== this.generation) return;
      act({
        type: 'reread',
        conversation: c,
        text: `${errorText(e)} — read again: ${STANDING[c.status] ?? c.status}.`,
        now: Date.now(),
      });
      await this.carryOn(c);
    } catch (e2) {
      if (mine === this.generation)
        act({ type: 'lost', text: `${errorText(e2)} — /open ${id.slice(0, 8)} reads it again.` });
    }
  }

  private async sendAnswers(id: string, answers: ApprovalAnswer[]): Promise<void> {
    let c: Conversation;
    try {
      c = await this.options.api.post({ conversation_id: id, approvals: answers, wait_seconds: 0 });
    } catch (e) {
      if (isConflict(e)) return this.reread(id, e);
      // not taken: the approvals are asked again (the service says why)
      this.options.act({ type: 'refused', text: errorText(e) });
      return;
    }
    this.options.act({ type: 'answered', conversation: c, now: Date.now() });
    await this.carryOn(c);
  }
}

/**
 * The chat's run follower: one for the chat's life, with the options of the last render. A resumed
 * conversation is opened once the chat is on the screen; leaving the screen stops any follow.
 */
export function useRunFollower(options: FollowerOptions, resumed?: ConversationWithTranscript | null): RunFollower {
  const ref = useRef<RunFollower | null>(null);
  const follower = (ref.current ??= new RunFollower(options));
  follower.options = options;
  useEffect(() => {
    if (resumed) void follower.open(resumed);
    return () => follower.close();
  }, []);
  return follower;
}
