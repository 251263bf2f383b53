/**
 * The error the mock refuses a configuration, policy, data file or auth material with. Every feature's
 * builder throws it, so it lives below all of them (docs/design.md "Imports run one way").
 */

/** A configuration, policy or data file the mock refuses; `message` is the one line shown to the user. */
export class ConfigError extends Error {
  readonly code = 'ERR_MOCK_CONFIG';
  override readonly name = 'ConfigError';
}

/**
 * Runs a builder that throws TypeError/RangeError for bad settings (`where[i]: …`) and rethrows those as a
 * one-line ConfigError prefixed with `label` (e.g. `config.access`).
 */
export function asConfigError<T>(label: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError) {
      throw new ConfigError(`${label}.${error.message}`);
    }
    throw error;
  }
}
