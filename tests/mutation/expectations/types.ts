/**
 * What the mutation tests expect of one defect mode (mock/defects/<layer>/<name>.ts): the rules it must fail
 * when the suite runs against it (tests/mutation/score.test.ts), and the HTTP probe that shows it changes
 * what the mock answers (tests/mutation/defects.test.ts).
 */
import type { DefectName } from '../../../mock/defects/registry.ts';
import type { StartOptions } from '../../../mock/server.ts';

export interface FakeClock {
  now: number;
}

export interface Expectation {
  /** The rule(s) the defect is meant to break: each must fail when the defect is on. */
  readonly rules: readonly string[];
  /**
   * Other rules that catch the same bug, stated (they check the same behaviour from another angle, or a
   * fuzz property reaches it); they may fail too. A rule outside `rules` and `collateral` that fails is
   * a finding of the mutation test: either the defect is not the one bug it claims, or a rule is too broad.
   */
  readonly collateral?: readonly string[];
  /**
   * Turns a mock into one observable value; the conformant mock and the defective one must give
   * `conformant` and `defective`.
   */
  readonly probe: (url: string, clock: FakeClock) => Promise<unknown>;
  readonly conformant: unknown;
  readonly defective: unknown;
  /** Mock options (both mocks) the probe needs, e.g. a small rate limit. */
  readonly options?: StartOptions;
}

/** A layer's expectations, keyed by defect name. */
export type Expectations = Partial<Record<DefectName, Expectation>>;
