// The webhook delivery log on the control plane: every attempt made for the workspace
// (GET /_sim/webhook-deliveries), and an attempt's exact bytes sent once more
// (POST /_sim/webhook-deliveries/{id}/resend). The deliveries themselves: delivery.ts.
import * as z from 'zod/mini';
import { ApiError, notFound } from '../core/errors.js';
import { route, type Ctx, type Route } from '../core/http.js';
import type { DeliveryAttempt } from './records.js';
import { DeliveryAttemptSchema } from '../history/index.js';
import { dataOf, doc, int, obj, qString, record, str, type Infer } from '../core/schema.js';

/** What the log reads of a request: never its params, query or body. */
type Req = Ctx<unknown, unknown, unknown>;

function deliveryLog(c: Req, eventId: string | undefined): Infer<typeof DeliveryAttemptSchema>[] {
  return c.data.webhook_deliveries
    .filter((d) => d.workspace_id === c.auth.workspace.id && (eventId === undefined || d.event_id === eventId))
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.seq - b.seq)
    .map(presentAttempt);
}

/** An attempt of the log as answered (a line logged before requests were kept: its id from its number, the rest null). */
const presentAttempt = (d: DeliveryAttempt): Infer<typeof DeliveryAttemptSchema> => ({
  id: d.id ?? `att_${d.seq}`,
  webhook_id: d.webhook_id ?? null,
  event_id: d.event_id,
  type: d.type,
  url: d.url,
  attempt: d.attempt,
  status_code: d.status_code,
  error: d.error,
  at: d.at,
  request: d.request ?? null,
  resend_of: d.resend_of ?? null,
});

const AttemptId = obj(
  { id: str({ min: 1, max: 100, description: "an attempt's id, from the delivery log", example: 'att_42' }) },
  { required: ['id'] },
);

const Resent = record({
  resend_of: doc(z.string(), { description: 'the attempt resent', example: 'att_42' }),
  webhook_id: doc(z.string(), { example: '3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90' }),
  event_id: doc(z.string(), { example: 'evt_3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90_ended' }),
  attempt: int({ min: 2, description: 'the number the new attempt has in the log', example: 2 }),
});

/**
 * POST /_sim/webhook-deliveries/{id}/resend: the attempt's exact bytes, signed again with the
 * webhook's secret, sent once more as a new attempt (numbered after the event's last one); a resend
 * that fails is not retried. The control plane's reply waits for it: the log shows it by then.
 */
function resend(c: Ctx<Infer<typeof AttemptId>>) {
  const ws = c.auth.workspace.id;
  const d = c.data.webhook_deliveries.find((x) => x.workspace_id === ws && (x.id ?? `att_${x.seq}`) === c.params.id);
  if (!d) throw notFound(`No delivery attempt ${c.params.id} in the workspace's log.`);
  const webhook = c.data.webhooks.find((w) => w.id === d.webhook_id && w.workspace_id === ws);
  if (!d.request || !webhook)
    throw new ApiError(
      409,
      'conflict',
      d.request
        ? `The webhook attempt ${c.params.id} went to was deleted: there is nowhere to resend it.`
        : `Attempt ${c.params.id} was logged before the log kept requests: its bytes are not known.`,
    );
  const last = Math.max(
    ...c.data.webhook_deliveries
      .filter((x) => x.event_id === d.event_id && x.webhook_id === webhook.id)
      .map((x) => x.attempt),
    ...c.data.webhook_outbox
      .filter((x) => x.event_id === d.event_id && x.webhook_id === webhook.id)
      .map((x) => x.attempt),
  );
  const attempt = last + 1;
  c.data.webhook_outbox.push({
    id: `dlv_${c.s.nextSeq()}`,
    webhook_id: webhook.id,
    workspace_id: ws,
    event_id: d.event_id,
    type: d.type,
    body: d.request.body,
    attempt,
    first_at_ms: c.s.now,
    due_at_ms: c.s.now,
    claimed_until: null,
    resend_of: c.params.id,
  });
  return {
    status: 202,
    body: { data: { resend_of: c.params.id, webhook_id: webhook.id, event_id: d.event_id, attempt } },
  };
}

// ---- routes ----

export const logRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/_sim/webhook-deliveries',
    summary: 'The webhook delivery log',
    description:
      "Every delivery attempt made for the workspace, oldest first: its event, URL, attempt number, and the receiver's status or the error.",
    query: obj({
      event_id: qString({
        description: 'only the attempts for this event',
        example: 'evt_3f0c8a52-7d1e-4b6a-9c1d-2a5e8f4b7c90_ended',
      }),
    }),
    responses: {
      200: { description: 'Delivery attempts, oldest first', schema: dataOf(z.array(DeliveryAttemptSchema)) },
    },
    handler: (c) => ({ body: { data: deliveryLog(c, c.query.event_id) } }),
  }),
  route({
    method: 'POST',
    path: '/_sim/webhook-deliveries/{id}/resend',
    summary: 'Resend a webhook delivery',
    description:
      "Sends the attempt's exact bytes to its webhook once more, signed with the webhook's secret, as a new attempt of the same event " +
      "(numbered after the event's last one, `resend_of` naming this one). A resend that fails is not retried. The reply comes once it " +
      'was made: the delivery log shows it. 409 when the webhook was deleted, or the attempt was logged before the log kept requests.',
    params: AttemptId,
    responses: { 202: { description: 'Resent', schema: dataOf(Resent) } },
    errors: { 404: ['not_found'], 409: ['conflict'] },
    handler: resend,
  }),
];
