/** The configuration seam: the configuration as the defective server runs it, each defect's change in turn. */
import type { MockConfig } from '../../config.ts';
import type { Defect } from '../unit/define.ts';

export function defectiveSettings(config: MockConfig, defects: readonly Defect[]): MockConfig {
  return defects.reduce<MockConfig>((out, defect) => {
    const change = defect.hooks.settings;
    return change === undefined ? out : { ...change(out), defects: out.defects };
  }, config);
}
