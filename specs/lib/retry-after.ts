/** Retry-After (RFC 9110 §10.2.3), as the rate-limit checks judge it. */

/**
 * RFC 9110 §10.2.3: Retry-After = HTTP-date / delay-seconds; delay-seconds = 1*DIGIT.
 * HTTP-date (§5.6.7) is IMF-fixdate, or the obsolete RFC 850 and asctime forms recipients accept.
 */
export function parseRetryAfter(value: string, now = Date.now()): number | undefined {
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const imf =
    /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
  const rfc850 =
    /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
  const asctime =
    /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ( \d|\d{2}) \d{2}:\d{2}:\d{2} \d{4}$/;
  if (!imf.test(v) && !rfc850.test(v) && !asctime.test(v)) return undefined;
  const at = Date.parse(asctime.test(v) ? `${v} GMT` : v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
