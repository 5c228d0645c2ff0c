// vmv/testing/vitest: a setup file for vitest (`test.setupFiles: ['vmv/testing/vitest']`). vitest's
// workers end without an exit event, so a simulator a test forgot to close would go unreported;
// this file's afterAll, registered before the test file's own hooks and so run after them (vitest's
// default `sequence.hooks: 'stack'`), reports what is still open at the end of each test file, with
// the line that started it, and closes it. It adds no test and fails none.
import { afterAll } from 'vitest';
import { leftOpenAtEnd } from '../open.js';

afterAll(async () => {
  await leftOpenAtEnd('the test file');
});
