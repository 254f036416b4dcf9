// The e2e files' test environment: Node's, plus whether the running test has failed, which jest's afterEach hooks
// cannot otherwise know. test/helpers/browser.ts reads it to report what each open page showed when a test failed.
const { TestEnvironment } = require('jest-environment-node');

class E2eEnvironment extends TestEnvironment {
  handleTestEvent(event) {
    if (event.name === 'test_start') this.global.__e2eTestFailed = false;
    if (event.name === 'test_fn_failure' || event.name === 'hook_failure') this.global.__e2eTestFailed = true;
  }
}

module.exports = E2eEnvironment;
