import { expect, test } from '@playwright/test';

test("the user's own test", () => expect(1 + 1).toBe(2));
