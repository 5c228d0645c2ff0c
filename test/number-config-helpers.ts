// The number configuration's requests as the tests of it make them (test/number-config*.test.ts).
import type { Sim } from './helpers.js';

/** Adds a number of a stack through the control plane, reads and changes its configuration. */
export function configApi(sim: () => Sim) {
  return {
    addNumber: async (stack: 't1' | 't2') =>
      (await sim().api('POST', '/_sim/phone-numbers', { body: { stack } })).json.id as number,
    get: async (id: number) => (await sim().api('GET', `/v1/phone-numbers/${id}/config`)).json.data,
    patch: (id: number, body: unknown) => sim().api('PATCH', `/v1/phone-numbers/${id}/config`, { body }),
  };
}
