/**
 * Does a waiver's `endpoint` cover a failing request? The pattern is matched (minimatch: `*` one path
 * segment, `**` any number) against the request's path with the target's base path taken off, so a waiver
 * says `/users/*` whatever prefix the target is deployed under.
 */

import { minimatch } from 'minimatch';

export function requestPath(url: string, basePath: string): string | undefined {
  let pathname: string;
  try {
    pathname = new URL(url, 'http://target.invalid').pathname;
  } catch {
    return undefined;
  }
  const base = basePath.replace(/\/+$/, '');
  if (base && (pathname === base || pathname.startsWith(`${base}/`)))
    return pathname.slice(base.length) || '/';
  return pathname;
}

export function endpointCovers(pattern: string, url: string, basePath: string): boolean {
  const path = requestPath(url, basePath);
  if (path === undefined) return false;
  return path === pattern || minimatch(path, pattern, { dot: true, nocomment: true, nonegate: true });
}
