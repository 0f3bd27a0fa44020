// A setup file of every project (vitest.config.ts): the test and hook timeouts of this file are
// the quiet machine's, stretched by how loaded the machine is as the file starts, so that a test
// whose children start slowly under load is not mistaken for one that hangs. A timeout given to
// one test or hook (`it(…, fn, 60_000)`) is left as written.
import { vi } from 'vitest';
import { patience, QUIET_TEST_TIMEOUT_MS } from './patience.ts';

vi.setConfig({
  testTimeout: patience(QUIET_TEST_TIMEOUT_MS),
  hookTimeout: patience(QUIET_TEST_TIMEOUT_MS),
});
