// The library ships TypeScript declarations: a consumer importing `vmv` by its package name
// type-checks against dist/index.d.ts, and a wrong call is a type error.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const dir = join(root, `.vmv-test-types-${process.pid}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Type-checks each source as a file of its own, in one program (the declarations are read once), and gives each file's problems. */
function diagnostics(sources: Record<string, string>): Record<string, string[]> {
  mkdirSync(dir, { recursive: true });
  const files = Object.entries(sources).map(([name, source]) => {
    writeFileSync(join(dir, `${name}.ts`), source);
    return join(dir, `${name}.ts`);
  });
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: ['node'],
    typeRoots: [join(root, 'node_modules/@types')],
  });
  const all = ts.getPreEmitDiagnostics(program);
  return Object.fromEntries(
    Object.keys(sources).map((name) => [
      name,
      all
        .filter((d) => !d.file || d.file.fileName === join(dir, `${name}.ts`))
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    ]),
  );
}

describe('dist/index.d.ts', () => {
  it('types verifySignature, createApp, Store and startServer for a consumer of the package, and refuses a wrong call', () => {
    const found = diagnostics({
      good: `
        import { createApp, startServer, Store, verifySignature, type SimResponse } from 'vmv';
        const ok: boolean = verifySignature(Buffer.from('{}'), 'abc', 'whsec_x');
        const app = createApp(new Store(null));
        const reply: Promise<SimResponse> = app.handle({ method: 'GET', url: '/v1/openapi.json', headers: {} });
        void startServer; void ok; void reply;
      `,
      wrong: `
        import { verifySignature } from 'vmv';
        verifySignature('{}', 'abc', 42);
      `,
    });
    expect(found.good).toEqual([]);
    expect(found.wrong.join('\n')).toMatch(/number.*not assignable.*string/);
  }, 120_000); // a whole type-check with skipLibCheck off: ~15 s on a quiet machine, 54 s seen under load
});
