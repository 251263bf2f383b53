import { expect, test } from '@playwright/test';

// The user's own test, run after the suite in the same run: it sees nothing of the suite's run (issue #40).
test("the user's own environment holds nothing of gatecheck's run", () => {
  const seen = Object.keys(process.env).filter(
    (name) => name === 'BASE_URL' || name.startsWith('GATECHECK_'),
  );
  expect(seen).toEqual([]);
});
