// vmv email send: POST /v1/quick/emails
import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { action, collect, withExamples, readStdin, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { usage } from '../../src/errors.js';
import { forStderr } from '../../src/io.js';
import { dim, green, money, yellow } from '../../src/output.js';

interface Options {
  to: string[];
  subject: string;
  body?: string;
  bodyFile?: string;
  replyTo?: string;
  fromName?: string;
}

export function define(parent: Command, shell: Shell): void {
  withExamples(
    parent
      .command('send')
      .description('Send one plain-text email to 1-20 recipients (0.01 USD per recipient sent to)')
      .requiredOption('--to <recipient>', "an email address or a contact's name (repeat for more)", collect)
      .requiredOption('--subject <text>', 'subject line (1-200 characters)')
      .option('--body <text>', 'plain-text body (1-20000 characters; this or --body-file is required)')
      .option('--body-file <file>', 'read the body from a file (- for standard input; this or --body is required)')
      .option('--reply-to <address>', "where replies go (default: the API key owner's email)")
      .option('--from-name <name>', 'display name (default: the workspace name)')
      .action(action(shell, run)),
    'vmv sim contact --name "Grace Hopper" --email grace@example.com',
    'vmv email send --to ada@example.com --to "Grace Hopper" --subject Hello --body "Hi there"',
    'vmv email send --to ada@example.com --subject "Weekly report" --body-file report.txt --reply-to ops@example.com',
  );
}

export async function run(ctx: Context, o: Options): Promise<void> {
  if ((o.body === undefined) === (o.bodyFile === undefined))
    throw usage('Give the body with exactly one of --body or --body-file.');
  const body =
    o.body ??
    (o.bodyFile === '-'
      ? await readStdin(ctx.io)
      : await readFile(o.bodyFile!, 'utf8').catch((e: Error) => {
          throw usage(`Cannot read --body-file: ${e.message}`);
        }));
  const res = await ctx.call('POST', '/v1/quick/emails', {
    body: { to: o.to, subject: o.subject, body, reply_to: o.replyTo, from_name: o.fromName },
  });
  ctx.emit(res, ({ data }) => {
    const { io } = ctx;
    const eio = forStderr(io);
    // a create: the new email's id alone on stdout; who it went to is a message, on stderr
    io.out(`${data.id}\n`);
    io.err(
      `${green(eio, '✓')} Sent to ${data.sent_to.length} recipient${data.sent_to.length === 1 ? '' : 's'} for ${money(data.cost_usd)} ${dim(eio, `(email ${data.id})`)}\n`,
    );
    for (const r of data.recipients as any[]) {
      const suppressed = data.suppressed.some((s: string) => s.toLowerCase() === r.email.toLowerCase());
      io.err(
        `  ${r.email}${r.contact_name ? ` (${r.contact_name})` : ''}: ${suppressed ? yellow(eio, 'skipped, suppressed') : 'sent'}\n`,
      );
    }
  });
}
