// Ends a test run with one plain line, "tests: N passed, N failed, N skipped", that any CI can read;
// before it, every skipped test with the reason it gave (test/skips.ts). A skip that gives no
// reason passes in silence, so under CI (CI set) one fails the run (issue 34).
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    const skips: string[] = [];
    let silent = 0;
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const result = t.result();
        if (result.state === 'passed') passed++;
        else if (result.state === 'failed') failed++;
        else {
          const note = result.state === 'skipped' ? result.note : undefined;
          if (!note) silent++;
          skips.push(
            `  ${m.moduleId.replace(/^.*\/(test|simulator|src)\//, '$1/')} > ${t.fullName}: ${note ?? 'NO REASON GIVEN'}`,
          );
        }
      }
    }
    const out: string[] = [];
    // a run narrowed by -t skips the rest without a reason: listed only under CI, counted otherwise
    const shown = process.env.CI ? skips : skips.filter((l) => !l.endsWith('NO REASON GIVEN'));
    if (shown.length) out.push('', `skipped (${shown.length}):`, ...shown);
    if (silent && !process.env.CI) out.push(`(${silent} more skipped without a reason: a -t filter, or .skip)`);
    if (silent && process.env.CI) {
      out.push(`${silent} test(s) skipped without a reason: under CI that fails the run (test/skips.ts gives one)`);
      process.exitCode = 1;
    }
    out.push('', `tests: ${passed} passed, ${failed} failed, ${skips.length} skipped`, '');
    process.stdout.write(out.join('\n'));
  }
}
