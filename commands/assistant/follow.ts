// Following a run for the script-facing verbs (send, approve, and the chat's line mode): reads the
// conversation until the run stops working, saying each action on stderr as it completes; answers
// approvals by --approve-all / --decline-all, or by asking on a terminal; stops at approvals nobody
// can answer (exit 7, the conversation's id alone on stdout), and at the wait's end (exit 6, likewise).
import type { Context } from '../../src/context.js';
import { CliError, EXIT } from '../../src/errors.js';
import { canAsk, forStderr } from '../../src/io.js';
import { dim, red, yellow } from '../../src/output.js';
import { noteManualClock, pollInterval } from '../../src/poll.js';
import { idShown, startWait } from '../../src/wait.js';
import { conversationPath, followRun, newActions, type AssistantApi } from './session.js';
import {
  actionText,
  approvalText,
  continueHint,
  type ApprovalAnswer,
  type Conversation,
  type PendingApproval,
} from './view.js';

export type Policy = 'approve' | 'decline';

/** An action's progress line by how it ended: dim when done, red when it failed; yellow otherwise (declined: not done). */
const PAINT: Record<string, typeof dim> = { completed: dim, failed: red };

export interface Settle {
  /** seconds of wall-clock time to wait for the run to stop working; null: until it does */
  waitSeconds: number | null;
  /** move a manual simulator clock to each next due transition */
  advance: boolean;
  /** answer every approval so, without asking */
  policy?: Policy;
  /** why, told to the assistant with each decline by policy */
  reason?: string;
  /** on a terminal, ask for each approval (send, approve); the chat's line mode never asks */
  ask: boolean;
  /** how to answer approvals left pending, for the message that ends the command */
  answerHint: (id: string) => string;
  /** with `advance`, keep moving the clock after the run until what it started has ended (the chat's line mode) */
  untilActionsEnd?: boolean;
  /** say the simulator clock is manual and will not move (once; the chat's line mode says it otherwise) */
  noteClock?: boolean;
}

/** Progress lines on stderr (none with --json: stderr then holds only an error's JSON document). */
export const say = (ctx: Context, line: string) => {
  if (!ctx.json) ctx.io.err(line + '\n');
};

/**
 * Follows `first`'s run (and the runs its approvals start) until it is idle or failed: the last
 * read. Throws exit 6 when the wait runs out and exit 7 at approvals nobody answers; Ctrl-C is 130;
 * an API or network error its own (the run goes on in each case, and the conversation's id is
 * printed alone on stdout).
 */
export async function settle(
  ctx: Context,
  api: AssistantApi,
  first: Conversation,
  o: Settle,
  seen = new Set<string>(),
): Promise<Conversation> {
  const err = forStderr(ctx.io);
  const id = first.conversation_id;
  const w = await startWait(ctx, conversationPath(id));
  let deadline = o.waitSeconds === null ? null : Date.now() + o.waitSeconds * 1000;
  const show = (c: Conversation) => {
    for (const a of newActions(c.actions, seen)) say(ctx, (PAINT[a.status] ?? yellow)(err, actionText(a)));
  };
  let c = first;
  show(c);
  try {
    if (o.noteClock && !o.advance && c.status === 'working') await noteManualClock(ctx);
    for (;;) {
      if (c.status === 'working') {
        c = await w.race(
          followRun(api, c, {
            advance: o.advance,
            untilActionsEnd: o.untilActionsEnd,
            pollMs: pollInterval(ctx),
            pause: w.pause,
            deadline,
            onRead: show,
          }),
        );
        if (c.status === 'working') {
          if (!ctx.json) ctx.io.out(`${id}\n`);
          throw idShown(
            new CliError(
              `Stopped waiting after ${o.waitSeconds}s (--wait); the assistant's run in conversation ${id} goes on.`,
              EXIT.timeout,
              `See it: vmv assistant get ${id}`,
              { id },
            ),
          );
        }
      }
      if (c.status !== 'awaiting_approval') return c;
      const asked = Date.now();
      // a question still open when the wait ends (Ctrl-C) is taken back: nothing more is asked or read
      const ac = new AbortController();
      const answering = answer(ctx, c, o, ac.signal);
      answering.catch(() => {}); // once the wait has ended, its rejection is nobody's to report
      let answers: ApprovalAnswer[];
      try {
        answers = await w.race(answering);
      } finally {
        ac.abort();
      }
      // a person answering is not the run's time
      if (deadline !== null) deadline += Date.now() - asked;
      c = await w.race(api.post({ conversation_id: id, approvals: answers, wait_seconds: 0 }));
      show(c);
    }
  } catch (e) {
    throw w.stopped(e); // the service failing mid-run: the conversation's id, as at the wait's end
  } finally {
    w.dispose();
  }
}

/** The answers to every pending approval: by policy, asked on a terminal, or none (exit 7). */
async function answer(ctx: Context, c: Conversation, o: Settle, signal: AbortSignal): Promise<ApprovalAnswer[]> {
  const err = forStderr(ctx.io);
  const pending = c.pending_approvals;
  if (o.policy) {
    const flag = o.policy === 'approve' ? '--approve-all' : '--decline-all';
    for (const p of pending)
      say(ctx, dim(err, `${o.policy === 'approve' ? 'approved' : 'declined'} (${flag}): ${approvalText(p)}`));
    return pending.map((p) => ({
      approval_id: p.approval_id,
      approved: o.policy === 'approve',
      ...(o.policy === 'decline' && o.reason ? { reason: o.reason } : {}),
    }));
  }
  if (o.ask && canAsk(ctx.io) && !ctx.json) return askEach(ctx, c, pending, signal);
  if (!ctx.json) {
    ctx.io.out(`${c.conversation_id}\n`);
    // what the run said so far (answers to free requests, then the approvals it asks for), and each approval with its id
    if (c.reply) ctx.io.err(c.reply + '\n');
    for (const p of pending) ctx.io.err(`${yellow(err, 'approval')} ${p.approval_id}: ${approvalText(p)}\n`);
  }
  const n = pending.length;
  throw idShown(
    new CliError(
      `The assistant waits for your approval of ${n === 1 ? 'an action' : `${n} actions`} in conversation ${c.conversation_id}; ${n === 1 ? 'it was' : 'they were'} not done.`,
      EXIT.declined,
      o.answerHint(c.conversation_id),
      { id: c.conversation_id, approval_ids: pending.map((p) => p.approval_id) },
    ),
  );
}

/** On a terminal: each approval with what it costs, y to approve; anything else declines, then an optional reason. */
async function askEach(
  ctx: Context,
  c: Conversation,
  pending: PendingApproval[],
  signal: AbortSignal,
): Promise<ApprovalAnswer[]> {
  const { ask } = await import('../../src/prompt.js');
  const err = forStderr(ctx.io);
  if (c.reply) ctx.io.err(c.reply + '\n');
  const answers: ApprovalAnswer[] = [];
  for (const [i, p] of pending.entries()) {
    const of = pending.length > 1 ? ` (${i + 1} of ${pending.length})` : '';
    const yes = /^y(es)?$/i.test(
      (await ask(ctx.io, `${yellow(err, `Approve${of}`)} ${approvalText(p)} [y/N] `, { signal })).trim(),
    );
    if (yes) {
      answers.push({ approval_id: p.approval_id, approved: true });
      continue;
    }
    const reason = (await ask(ctx.io, 'Why not? (told to the assistant; Enter to skip) ', { signal })).trim();
    answers.push({ approval_id: p.approval_id, approved: false, ...(reason ? { reason } : {}) });
  }
  return answers;
}

/**
 * The end of send and approve: the reply on stdout (with --json, the conversation as read now);
 * which conversation it was on stderr; a failed run exits 5, a reply that did not understand (part
 * of) the message exits 8 (after the reply: it says what, and what the assistant can do). A run still
 * working (--wait 0) prints the conversation's id alone, as a create prints the new id.
 */
export async function finish(ctx: Context, c: Conversation): Promise<void> {
  if (ctx.json) ctx.emit(await ctx.call('GET', conversationPath(c.conversation_id)), () => {});
  else if (c.status === 'working' || c.status === 'awaiting_approval') {
    ctx.io.out(`${c.conversation_id}\n`);
    say(
      ctx,
      dim(
        forStderr(ctx.io),
        `conversation ${c.conversation_id}: ${c.status.replace('_', ' ')}. See it: vmv assistant get ${c.conversation_id}`,
      ),
    );
  } else if (c.status === 'idle') {
    ctx.io.out(c.reply.endsWith('\n') ? c.reply : `${c.reply}\n`);
    say(
      ctx,
      dim(
        forStderr(ctx.io),
        `conversation ${c.conversation_id} · continue it: vmv assistant send --conversation ${c.conversation_id} "..."`,
      ),
    );
  }
  if (c.status === 'failed') throw failedRun(c);
  if (c.status === 'idle') notUnderstood(c);
}

/** A reply that did not understand part of the message, as a command's error (exit 8), so that a script can tell. */
export function notUnderstood(c: Conversation): void {
  const missed = c.not_understood ?? [];
  if (missed.length === 0) return;
  throw new CliError(
    `The assistant did not understand ${missed.map((m) => `"${m}"`).join(', ')}.`,
    EXIT.notUnderstood,
    'Its reply says what it can do; ask again in other words.',
    { id: c.conversation_id, not_understood: missed },
  );
}

/** A failed run as a command's error (exit 5): its error, and how to go on in the conversation. */
export function failedRun(c: Conversation): CliError {
  return new CliError(c.error ?? "The assistant's run failed.", EXIT.failed, continueHint(c.conversation_id), {
    id: c.conversation_id,
  });
}
