// The contract check: every response a test receives from the simulator (over HTTP through
// request(), or through the CLI's client on either target) is checked against the API description
// with a JSON Schema validator that knows nothing of zod, so the simulator and the document it
// publishes cannot drift. Violations are collected and fail the test that caused them
// (contract-setup.ts).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { apiDocument } from '../simulator/capabilities.js';

type Json = Record<string, any>;

export interface Exchange {
  method: string;
  /** path and query as sent */
  url: string;
  status: number;
  contentType: string | undefined;
  /** response headers, names in lower case */
  headers?: Record<string, string>;
  body: Buffer | string;
}

interface Operation {
  re: RegExp;
  template: string;
  method: string;
  doc: 'api' | 'control';
  op: Json;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/**
 * An ajv that checks formats (date-time, date, uuid, email, uri...): without them ajv only warns
 * `unknown format "date-time" ignored` (about 1,000 lines of a run) and checks nothing (issue 34).
 */
export function withFormats<A>(ajv: A): A {
  addFormats(ajv as unknown as Ajv2020);
  return ajv;
}

export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly ops: Operation[] = [];
  /** the error envelope with any code: what a request to no route gets */
  private readonly anyError: ValidateFunction;

  constructor(private readonly docs: { api: Json; control: Json }) {
    addFormats(this.ajv);
    for (const which of ['api', 'control'] as const) {
      const doc = docs[which];
      this.ajv.addSchema({ ...doc, $id: `${which}.json` });
      for (const [template, item] of Object.entries(doc.paths as Record<string, Json>)) {
        const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`);
        for (const [method, op] of Object.entries(item))
          this.ops.push({ re, template, method: method.toUpperCase(), doc: which, op });
      }
    }
    const ref = docs.api.paths['/v1/openapi.json'].get.responses['500'].content['application/json'].schema
      .$ref as string;
    const envelope = structuredClone(docs.api.components.schemas[ref.split('/').pop()!]);
    delete envelope.properties.error.properties.code.enum;
    this.anyError = this.ajv.compile(envelope);
    // literal paths before templated ones, as the simulator matches them
    this.ops.sort((a, b) => Number(a.template.includes('{')) - Number(b.template.includes('{')));
  }

  /** Problems with one exchange; empty when it matches the document. */
  check(x: Exchange): string[] {
    const path = x.url.split('?')[0];
    const label = `${x.method} ${path} → ${x.status}`;
    // a HEAD is its GET without the body (RFC 9110 §9.3.2): the GET's operation, its headers checked
    const head = x.method.toUpperCase() === 'HEAD';
    const method = head ? 'GET' : x.method.toUpperCase();
    const sameMethod = this.ops.filter((o) => o.method === method && o.re.test(path));
    const op = sameMethod[0];
    if (!op) {
      // a request to no route (a path spelt in a way refused, or a method a path lacks) must still
      // answer with the error envelope; a 405 names the methods the path takes (RFC 9110 §15.5.6)
      const expected = ({ 400: 'bad_request', 404: 'not_found', 405: 'method_not_allowed' } as Json)[x.status];
      if (expected) {
        const problems = this.validate(this.anyError, x, label);
        const code = problems.length ? null : JSON.parse(String(x.body)).error.code;
        if (code !== null && code !== expected)
          problems.push(`${label}: a request to no route answers ${expected}, not ${code}`);
        if (x.status === 405 && x.headers && !x.headers.allow) problems.push(`${label}: a 405 without Allow`);
        return problems;
      }
      return [`${label}: the document has no operation for this request`];
    }
    const responses = op.op.responses as Json;
    const response = responses[String(x.status)];
    if (!response)
      return [
        `${label}: status ${x.status} is not documented for ${x.method} ${op.template} (documented: ${Object.keys(responses).join(', ')})`,
      ];
    const missing = this.missingHeaders(op.doc, response, x);
    if (missing.length) return missing.map((h) => `${label}: the required header ${h} is missing`);
    if (head) return x.body.length === 0 ? [] : [`${label}: a HEAD answered with a body`];
    const content = response.content as Json | undefined;
    if (!content) return x.body.length === 0 ? [] : [`${label}: the document declares no body, the response has one`];
    const type = (x.contentType ?? '').split(';')[0].trim();
    if (!Object.hasOwn(content, type))
      return [`${label}: content type ${type || '(none)'} is not among ${Object.keys(content).join(', ')}`];
    if (type !== 'application/json') return [];
    const pointer = `${op.doc}.json#/paths/${escape(op.template)}/${op.method.toLowerCase()}/responses/${x.status}/content/${escape(type)}/schema`;
    const problems = this.validate(pointer, x, label);
    return problems;
  }

  /** Headers the response declares as required that the exchange lacks (when its headers were seen). */
  private missingHeaders(doc: 'api' | 'control', response: Json, x: Exchange): string[] {
    if (!x.headers) return [];
    const components = (doc === 'api' ? this.docs.api : this.docs.control).components?.headers ?? {};
    return Object.entries((response.headers ?? {}) as Json)
      .filter(([name, h]) => {
        const decl = h.$ref ? components[String(h.$ref).split('/').pop()!] : h;
        return decl?.required && !Object.hasOwn(x.headers!, name.toLowerCase());
      })
      .map(([name]) => name);
  }

  private validate(ref: string | ValidateFunction, x: Exchange, label: string): string[] {
    let body: unknown;
    try {
      body = JSON.parse(String(x.body));
    } catch {
      return [`${label}: the body is not JSON`];
    }
    const validate = typeof ref === 'string' ? this.ajv.getSchema(ref) : ref;
    if (!validate) return [`${label}: no schema at ${ref}`];
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e) => `${label}: ${e.instancePath || '(body)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
    );
  }
}

const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

let checker: Promise<ContractChecker> | null = null;
export function contractChecker(): Promise<ContractChecker> {
  checker ??= Promise.all([apiDocument('api'), apiDocument('control')]).then(
    ([api, control]) => new ContractChecker({ api, control }),
  );
  return checker;
}

/** Every problem found since the last take, for the test that caused them. */
const violations: string[] = [];
const pending = new Set<Promise<void>>();

export function recordExchange(x: Exchange): void {
  const work = contractChecker().then((c) => void violations.push(...c.check(x)));
  pending.add(work);
  void work.finally(() => pending.delete(work));
}

export async function takeViolations(): Promise<string[]> {
  await Promise.all(pending);
  return violations.splice(0);
}
