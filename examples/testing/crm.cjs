// The program under test in the CommonJS example: a CRM that reads the summaries of the calls its
// numbers took, calling the service with plain fetch (no vmv code), written as CommonJS.

/** The inbound calls that ended, newest first: who called, and the service's summary of what was said. */
async function callSummaries(service) {
  const res = await fetch(`${service.baseUrl}/v1/calls?direction=inbound`, {
    headers: { authorization: `Bearer ${service.apiKey}` },
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(`GET /v1/calls: ${res.status} ${answer.error?.message}`);
  return answer.data.filter((c) => c.status === 'COMPLETED').map((c) => ({ from: c.from_number, summary: c.summary }));
}

module.exports = { callSummaries };
