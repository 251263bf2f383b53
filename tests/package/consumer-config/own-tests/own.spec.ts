import { expect, test } from '@playwright/test';

test('the consumer keeps its own tests', () => expect(1 + 1).toBe(2));
