// One line per test, then "N passed, N failed" — the runner contract
// every editor's tests/run.sh follows. Suites (describe) are not counted.
export default async function* reporter(source) {
  let passed = 0;
  let failed = 0;
  const failures = [];
  for await (const event of source) {
    const { type, data } = event;
    if (type !== 'test:pass' && type !== 'test:fail') {
      if (type === 'test:stderr' || type === 'test:stdout') yield data.message;
      continue;
    }
    if (data.details && data.details.type === 'suite') continue;
    const where = data.file ? data.file.replace(/^.*\/tests\//, '') : '';
    if (type === 'test:pass') {
      if (data.skip || data.todo) { yield `skip ${where} › ${data.name}\n`; continue; }
      passed++;
      yield `ok   ${where} › ${data.name}\n`;
    } else {
      failed++;
      const error = data.details && data.details.error;
      const cause = error && (error.cause || error);
      const text = cause && (cause.stack || cause.message) || String(cause);
      failures.push(`--- ${where} › ${data.name}\n${text}\n`);
      yield `FAIL ${where} › ${data.name}\n`;
    }
  }
  for (const failure of failures) yield failure;
  yield `${passed} passed, ${failed} failed\n`;
}
