/**
 * The class a target was judged as, in one line (issue #66): "Bearer (JWT) · read-only · admin role · limit
 * 60/10 s per address". The report, the summary, JUnit and the signed statement name it, so two statements can
 * be compared: a conformant read-only Bearer API and a conformant full seed interface say which they are.
 */
import { CANONICAL_SCHEME_NAME } from '../profile/credential-maker.ts';
import type { Declaration } from './declaration.ts';

export function classLabel(d: Declaration): string {
  const parts: string[] = [];
  const schemes = d.schemes.map((s) =>
    s === 'bearer'
      ? `Bearer (${d.features.has('jwt') ? `JWT ${d.jwtAlg ?? ''}`.trim() : 'opaque'})`
      : CANONICAL_SCHEME_NAME[s],
  );
  parts.push(schemes.length ? schemes.join(' + ') : 'no scheme');
  if (d.features.has('public')) parts.push('public read');
  parts.push(
    d.features.has('writes')
      ? `writes (${d.writer === 'any' ? 'any identity' : `${d.writer ?? 'admin'} only`})`
      : 'read-only',
  );
  if (d.features.has('admin-role')) parts.push('admin role');
  parts.push(d.limits.length ? `limit ${d.limits.join(', ')}` : 'no limit declared');
  if (d.features.has('blocking')) parts.push('blocks clients');
  if (d.features.has('closed-route')) parts.push('a closed route');
  if (d.features.has('fault')) parts.push('fault trigger');
  return parts.join(' · ');
}
