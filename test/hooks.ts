/**
 * Mocha root hooks (loaded by .mocharc.json): `npm test` stops every server it started. Test servers and
 * browsers are closed by their own suites; the one shared server is Virtuoso, started on demand by
 * test/integration/virtuoso-setup.ts and stopped here after the last test (unless it was running before).
 */
import { stopVirtuosoIfStartedHere } from './integration/virtuoso-setup';

export const mochaHooks = {
  afterAll(this: Mocha.Context): void {
    this.timeout(120_000);
    if (stopVirtuosoIfStartedHere()) process.stdout.write('  (stopped the Virtuoso server this run started)\n');
  },
};
