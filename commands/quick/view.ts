// How quick action jobs look in the terminal (shared by call, text, status and cancel).
import type { Context } from '../../src/context.js';
import { EXIT, CliError } from '../../src/errors.js';
import { fields, money, table, type Cell } from '../../src/output.js';
import { follow, noteManualClock } from '../../src/poll.js';

export interface Target {
  to_number: string; from_number: string | null; status: string; live_call_status: string | null; attempts: number;
  messages_sent: number; messages_received: number; goal_achieved: boolean; end_reason: string | null; summary: string | null;
}
export interface Job {
  id: string; kind: string; status: string; goal: string; targets: Target[]; counts: Record<string, number>; cost_usd: number;
  created_at: string; completed_at: string | null;
}

const HEADERS = ['to', 'from', 'status', 'live', 'attempts', 'sent', 'received', 'goal', 'end reason'];
const row = (t: Target): Cell[] => [t.to_number, t.from_number, t.status, t.live_call_status, t.attempts, t.messages_sent, t.messages_received, t.goal_achieved ? 'yes' : 'no', t.end_reason];

export function printJob(ctx: Context, job: Job): void {
  fields(ctx.io, [
    ['job', job.id], ['kind', job.kind], ['status', job.status], ['goal', job.goal],
    ['counts', Object.entries(job.counts).filter(([k, v]) => k !== 'total' && v > 0).map(([k, v]) => `${v} ${k}`).join(', ')],
    ['cost', money(job.cost_usd)], ['created', job.created_at], ['completed', job.completed_at],
  ]);
  ctx.io.out('\n');
  table(ctx.io, HEADERS, job.targets.map(row));
}

/** The live view: a summary line and an aligned table, redrawn on each change. */
function liveLines(job: Job): string[] {
  const cells = job.targets.map((t) => row(t).map((c) => (c === null || c === undefined || c === '' ? '-' : String(c))));
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [`${job.kind} ${job.id}: ${job.status}, ${money(job.cost_usd)}`, line(HEADERS.map((h) => h.toUpperCase())), ...cells.map(line)];
}

/** Follows a job until it ends and prints the end state (the last read's body with --json). */
export async function followJob(ctx: Context, id: string, o: { failOnFailed: boolean; streamChanges: boolean }): Promise<void> {
  await noteManualClock(ctx);
  const last = await follow<{ data: Job }>(ctx, {
    read: async () => {
      const res = await ctx.call('GET', `/v1/quick/actions/${encodeURIComponent(id)}`);
      return { text: res.text(), body: res.json() };
    },
    done: (b) => b.data.status !== 'running',
    render: (b) => liveLines(b.data),
    changes: o.streamChanges ? (b) => new Map(b.data.targets.map((t) => [t.to_number, row(t).map((c) => (c === null || c === undefined ? '-' : String(c))).join('\t')])) : undefined,
  });
  if (ctx.json) ctx.io.out(last.text + '\n');
  else if (!ctx.io.stdoutTTY && !o.streamChanges) printJob(ctx, last.body.data);
  const failed = last.body.data.targets.filter((t) => t.status === 'failed').length;
  if (o.failOnFailed && failed > 0) throw new CliError(`${failed} of ${last.body.data.targets.length} targets failed.`, EXIT.failed);
}
