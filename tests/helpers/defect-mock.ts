/**
 * The bundled mock started with named defect modes (docs/defects.md, mock/defects/registry.ts): the real
 * broken target for tests that show a rule failing. Close it in afterAll / finally.
 */
import type { DefectName } from '../../mock/defects/registry.ts';
import { type RunningMock, type StartOptions, startMock } from '../../mock/server.ts';

export function startDefectiveMock(
  defects: readonly DefectName[],
  options: Omit<StartOptions, 'defects'> = {},
): Promise<RunningMock> {
  return startMock({ port: 0, ...options, defects });
}

/** Requests the mock has received so far (the journal's total; control API calls are not counted). */
export async function requestsReceived(mock: RunningMock): Promise<number> {
  if (!mock.control) throw new Error('the control API is off: cannot count requests');
  const res = await fetch(`${mock.control.url}`, {
    headers: { authorization: `Bearer ${mock.control.token}` },
  });
  if (!res.ok) throw new Error(`GET ${mock.control.url}: ${res.status}`);
  return ((await res.json()) as { journal: { total: number } }).journal.total;
}
