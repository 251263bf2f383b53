/**
 * The benchmarks' one reading of a numeric flag (bench/run.ts, bench/mock-ab.ts): a positive finite number, or
 * the fallback when the flag is absent; anything else is refused naming the flag.
 */
export function positiveNumber(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0)
    throw new TypeError(`--${name}: expected a positive number, got "${text}"`);
  return n;
}
