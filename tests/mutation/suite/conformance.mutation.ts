/** The suite's specs outside specs/fuzz/, for one target of the mutation run (tests/mutation/suite/load.ts). */
import { loadSpecs } from './load.ts';

await loadSpecs('conformance');
