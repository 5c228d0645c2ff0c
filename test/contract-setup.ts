// Runs before every test file: every response the CLI's client receives is checked against the
// API description, and a test fails with the list of what did not match (contract.ts). The file's
// temporary folders are removed when it ends (registered first, this runs after its own tear-down).
import { afterAll, afterEach, expect } from 'vitest';
import { exchanges } from '../src/client.js';
import { recordExchange, takeViolations } from './contract.js';
import { removeTempDirs } from './temp.js';

afterAll(removeTempDirs);

exchanges.observe = (method, url, res) =>
  recordExchange({
    method,
    url,
    status: res.status,
    contentType: res.headers['content-type'],
    headers: res.headers,
    body: res.body,
  });

const noViolations = async () =>
  expect(await takeViolations(), 'responses that do not match the API description').toEqual([]);
afterEach(noViolations);
// what set-up and tear-down hooks received too
afterAll(noViolations);
