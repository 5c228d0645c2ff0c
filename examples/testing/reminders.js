// The program under test in vmv/testing's examples: a booking app's reminder, calling the service
// with plain fetch (no vmv code). The examples beside it test it with vitest, Jest and node:test.

/** One request to the service; the parsed answer, or an error carrying the service's own words. */
async function call(service, method, path, body) {
  const res = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${answer.error?.message}`);
  return answer.data;
}

/** Asks the service to tell `url` when calls end; the webhook's secret signs each delivery. */
export function watchCalls(service, url) {
  return call(service, 'POST', '/v1/voice/calls/webhooks', { url, events: ['call.ended'] });
}

/** A quick AI call reminding `to` of an appointment: the job. */
export function placeReminder(service, to, when) {
  return call(service, 'POST', '/v1/quick/ai-calls', {
    to_numbers: [to],
    goal: `Confirm the appointment on ${when}`,
    retry_attempts: 0,
  });
}
