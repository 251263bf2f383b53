/**
 * The mock's clock (mock/clock.ts) against a base clock that ticks a millisecond on every reading: the worst
 * case of a request handled across a millisecond boundary. Moving the clock is exact however the base ticks.
 */
import { expect, test } from '@playwright/test';
import { createClock } from '../../mock/clock.ts';

/** A base clock that moves 1 ms each time it is read. */
function tickingBase(start = 1_800_000_000_000): () => number {
  let t = start;
  return () => t++;
}

test('advancing by an hour moves the offset by exactly 3,600,000 ms, however the base clock ticks between readings', () => {
  const clock = createClock(tickingBase());
  clock.advance(3_600_000);
  expect(clock.state().offsetMs).toBe(3_600_000);
  clock.advance(-1_000);
  expect(clock.state().offsetMs).toBe(3_599_000);
});

test('frozen, an advance moves the frozen reading by exactly its amount; thawed, the clock runs on from there', () => {
  const clock = createClock(tickingBase());
  const frozen = clock.freeze(true);
  expect(clock.advance(60_000)).toBe(frozen + 60_000);
  expect(clock.state()).toMatchObject({ now: frozen + 60_000, frozen: true });
  const thawed = clock.freeze(false);
  expect(thawed).toBe(frozen + 60_000);
  expect(clock.state().frozen).toBe(false);
});

test('an advance past the 100-year bound is refused and leaves the offset as it was', () => {
  const clock = createClock(tickingBase());
  clock.advance(1_000);
  expect(() => clock.advance(101 * 365.25 * 86_400_000)).toThrow(RangeError);
  expect(clock.state().offsetMs).toBe(1_000);
});
