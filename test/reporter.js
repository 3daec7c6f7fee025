'use strict';
// mocha's spec reporter plus the plain closing line CI reads: "N passed, N failed".
//
// A test that could not run counts as failed, never as silently skipped: when a before/beforeEach hook
// fails (Virtuoso, Chromium or torch missing, a server that does not start), mocha reports one hook
// failure and never runs the tests under it. Those tests are counted in "failed" here and named with the
// hook's error, so a machine without the test dependencies cannot show a green-looking summary.
const Mocha = require('mocha');
const { EVENT_RUN_END, EVENT_TEST_FAIL } = Mocha.Runner.constants;

/** Every test under a suite that mocha would run (the --grep filter applied). */
function selectedTests(suite, runner, out = []) {
  const grep = runner._grep;
  for (const t of suite.tests) {
    const matches = !grep || grep.test(t.fullTitle()) !== !!runner._invert;
    if (matches) out.push(t);
  }
  for (const s of suite.suites) selectedTests(s, runner, out);
  return out;
}

class PlainSummary extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    let testFailures = 0;
    const hookFailures = [];
    runner.on(EVENT_TEST_FAIL, (test, err) => {
      if (test.type === 'hook') hookFailures.push({ title: test.fullTitle(), message: String((err && err.message) || err).split('\n')[0] });
      else testFailures++;
    });
    runner.once(EVENT_RUN_END, () => {
      const s = runner.stats;
      const notRun = selectedTests(runner.suite, runner).filter((t) => t.state === undefined && !t.isPending());
      // a failed after-all hook (every test ran) still fails the run
      const failed = testFailures + notRun.length + (notRun.length === 0 ? hookFailures.length : 0);
      if (notRun.length > 0) {
        process.stdout.write(`\n${notRun.length} test(s) could not run because a hook failed (counted as failed):\n`);
        for (const h of hookFailures) process.stdout.write(`  ${h.title}: ${h.message}\n`);
      }
      process.stdout.write(`\n${s.passes} passed, ${failed} failed${s.pending ? `, ${s.pending} skipped` : ''}\n`);
    });
  }
}
module.exports = PlainSummary;
