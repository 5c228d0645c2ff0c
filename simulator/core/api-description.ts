// GET /v1/openapi.json and GET /_sim/openapi.json: the API description, generated from the route
// declarations on first request (openapi.ts is loaded only then) and kept for the process. It is
// made for a set of resources (the composition root's: every capability's), never imports them.
// A built package reads the documents the build made (dist/api-description.json) instead: building
// them converts every route's schemas (about 200 ms), which `vmv mcp` would pay at each start.
import type { Resource } from './http.js';
import * as z from 'zod/mini';

/** The door's rules (the simulator's HTTP server, src/http-gate.ts), said in both documents. */
const DOOR =
  " The simulator's server answers only requests whose Host is a loopback name, its own address or a name it was told to allow " +
  '(421 host_not_allowed otherwise), refuses requests from web pages not on a loopback address (403 origin_not_allowed; outside /v1 also ' +
  'any a browser marks Sec-Fetch-Site: cross-site), refuses paths with dot segments, empty segments, backslashes or escaped slashes ' +
  '(400 bad_request), takes request bodies only as application/json (415 unsupported_media_type), and answers malformed HTTP with the ' +
  'error envelope (400 bad_request, 431 headers_too_large). A 405 names the methods its path takes in Allow. Bound beyond loopback, it ' +
  'answers /_sim to clients on other machines only with its control token in the Vmv-Control-Token header (401 control_token_required).';

export type DocumentKind = 'api' | 'control';

/** The build's id (scripts/build.mjs defines it in the bundle); undefined when running from the sources. */
declare const __VMV_BUILD__: string | undefined;

/** The file the build writes beside the bundle: `{build, documents: {api, control}}`. */
export const PREBUILT_FILE = 'api-description.json';

/** The /v1 description, or the /_sim control plane's, of `resources` (loaded when first asked for), each made once. */
export function describer(
  resources: () => Promise<readonly Resource[]>,
): (which: DocumentKind) => Promise<Record<string, unknown>> {
  const documents = new Map<string, Promise<Record<string, unknown>>>();
  return (which) => {
    let doc = documents.get(which);
    if (!doc) {
      doc = prebuilt(which).then(
        (made) =>
          made ??
          Promise.all([import('./openapi.js'), resources()]).then(([{ buildDocument }, all]) =>
            build(buildDocument, all, which),
          ),
      );
      documents.set(which, doc);
    }
    return doc;
  };
}

let saved: Promise<{ build?: string; documents?: Partial<Record<DocumentKind, Record<string, unknown>>> } | null>;

/**
 * The document the build made of this very bundle, or null: running from the sources, no file yet
 * (the build itself, making it), or a file of another build (its id differs) is never trusted.
 * The file holds both documents: it is read and parsed once for both.
 */
async function prebuilt(which: DocumentKind): Promise<Record<string, unknown> | null> {
  if (typeof __VMV_BUILD__ !== 'string') return null;
  saved ??= import('node:fs/promises')
    .then(({ readFile }) => readFile(new URL(`./${PREBUILT_FILE}`, import.meta.url), 'utf8'))
    .then((text) => JSON.parse(text))
    .catch(() => null);
  const file = await saved;
  return file?.build === __VMV_BUILD__ ? (file.documents?.[which] ?? null) : null;
}

function build(
  buildDocument: typeof import('./openapi.js').buildDocument,
  resources: readonly Resource[],
  which: DocumentKind,
): Record<string, unknown> {
  return which === 'api'
    ? buildDocument(resources, {
        prefix: '/v1/',
        title: 'Voice, messaging and video automation API',
        description:
          'AI voice calls, text messages, email and short social videos, driven over HTTP with a Bearer API key. ' +
          'Served by the vmv simulator, generated from the same route declarations that validate its requests. ' +
          'Errors use the error envelope; lists use the list envelope (limit, cursor, newest first); every write accepts an Idempotency-Key header.' +
          DOOR,
      })
    : buildDocument(resources, {
        prefix: '/_sim/',
        title: 'vmv simulator control plane',
        description:
          'Test helpers served only by the simulator, without an API key (a key, when sent, picks its workspace): ' +
          'the clock, keys, the wallet and plan, fixtures, and the simulated other party. Not part of the /v1 API.' +
          DOOR,
      });
}

const Document = z.record(z.string(), z.unknown()).check(
  z.meta({
    description: 'An OpenAPI 3.1 document',
    examples: [{ openapi: '3.1.0', info: { title: 'API', version: '1.0.0' }, paths: {} }],
  }),
);

/** The routes that serve the two documents. */
export const apiDescription = (document: (which: DocumentKind) => Promise<Record<string, unknown>>): Resource => ({
  tag: { name: 'API description', description: 'This document.' },
  routes: [
    {
      method: 'GET',
      path: '/v1/openapi.json',
      public: true,
      summary: 'The API description (OpenAPI 3.1, version 1.0.0)',
      responses: { 200: { description: 'The OpenAPI document', schema: Document } },
      handler: async () => ({ body: await document('api') }),
    },
    {
      method: 'GET',
      path: '/_sim/openapi.json',
      summary: 'The control plane description (OpenAPI 3.1)',
      responses: { 200: { description: 'The OpenAPI document', schema: Document } },
      handler: async () => ({ body: await document('control') }),
    },
  ],
});
