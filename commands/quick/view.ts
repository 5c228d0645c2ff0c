// How quick action jobs look in the terminal (shared by call, text, status and cancel).
import type { Context } from '../../src/context.js';
import { EXIT, CliError } from '../../src/errors.js';
import { alignedLines, cell, fields, money, nested, type Cell } from '../../src/output.js';
import { followRead } from '../../src/poll.js';

export interface Target {
  to_number: string;
  from_number?: string;
  status: string;
  live_call_status?: string;
  attempts: number;
  messages_sent: number;
  messages_received: number;
  goal_achieved: boolean;
  end_reason: string | null;
  summary: string | null;
}
export interface Job {
  id: string;
  kind: string;
  status: string;
  goal: string;
  targets: Target[];
  counts: Record<string, number>;
  cost_usd: number;
  created_at: string;
  completed_at: string | null;
}

const HEADERS = ['to', 'from', 'status', 'live', 'attempts', 'sent', 'received', 'goal', 'end reason'];
const row = (t: Target): Cell[] => [
  t.to_number,
  t.from_number,
  t.status,
  t.live_call_status,
  t.attempts,
  t.messages_sent,
  t.messages_received,
  t.goal_achieved ? 'yes' : 'no',
  t.end_reason,
];

export function printJob(ctx: Context, job: Job): void {
  fields(ctx.io, [
    ['job', job.id],
    ['kind', job.kind],
    ['status', job.status],
    ['goal', job.goal],
    [
      'counts',
      Object.entries(job.counts)
        .filter(([k, v]) => k !== 'total' && v > 0)
        .map(([k, v]) => `${v} ${k}`)
        .join(', '),
    ],
    ['cost', money(job.cost_usd)],
    ['created', job.created_at],
    ['completed', job.completed_at],
  ]);
  nested(ctx.io, 'target', HEADERS, job.targets.map(row));
}

/** The live view: a summary line and an aligned table, redrawn on each change. */
const liveLines = (ctx: Context, job: Job): string[] => [
  `${job.kind} ${job.id}: ${job.status}, ${money(job.cost_usd)}`,
  ...alignedLines(ctx.io, HEADERS, job.targets.map(row)),
];

/** Follows a job until it ends and prints the end state (the last read's body with --json). */
export async function followJob(
  ctx: Context,
  id: string,
  o: { failOnFailed: boolean; streamChanges: boolean },
): Promise<void> {
  const { data } = await followRead<{ data: Job }>(ctx, `/v1/quick/actions/${encodeURIComponent(id)}`, {
    done: (b) => b.data.status !== 'running',
    live: (b) => liveLines(ctx, b.data),
    // piped, each change is a line in the record's own shape: target<TAB>its columns
    changes: o.streamChanges
      ? (b) => new Map(b.data.targets.map((t) => [t.to_number, ['target', ...row(t)].map(cell).join('\t')]))
      : undefined,
    final: (b) => printJob(ctx, b.data),
  });
  // a target that failed (the provider's error, the pool's daily ceiling); no answer after every
  // retry, an opt-out or a cancel are outcomes of a campaign, not failures of the command
  const failed = data.targets.filter((t) => t.status === 'failed').length;
  if (o.failOnFailed && failed > 0)
    throw new CliError(`${failed} of ${data.targets.length} targets failed.`, EXIT.failed);
}
