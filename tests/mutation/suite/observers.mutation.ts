/** The observer verdicts (specs/observe/observers.verdict.ts), for one target of the mutation run. */
import '../../../specs/observe/observers.verdict.ts';
