/** `gatecheck --help`. docs/cli.md says the same at more length; keep them in step. */

import { DEFAULT_SEED } from '../shared/env.ts';
import { EXIT_TABLE } from './exit-codes.ts';

export function helpText(): string {
  const exits = EXIT_TABLE.map(([code, meaning]) => `  ${code}  ${meaning}`).join('\n');
  return `gatecheck: conformance suite for the protected HTTP interface
(Authorization header; 200/400/401/403/404/405/429/500 semantics)

Usage
  gatecheck [options] [-- <playwright test options>]
  gatecheck rules [--markdown | --json]
  gatecheck init <openapi.json|yaml|url> [--out <file>] [--force] [--probe <url>] [--writes]
                [--server <n|url>]
                          write a starting profile (and a .env-style list of the variables it
                          names) from the target's OpenAPI 3.0/3.1 or Swagger 2.0 document;
                          --writes also picks a collection for the write rules; --server picks
                          the document's server (its number in the list, or its URL)
  gatecheck check --profile <file> [--base-url <url>] [--probe]
                          check a profile without a run: its fields, every variable it reads that
                          is not set (all at once), the rules that would run and skip; --probe:
                          one GET per declared endpoint, then its reads confirmed by the
                          target's answers (exit 0 ready, 2 not or contradicted, 3 no answer)
  gatecheck merge-reports <blob-dir> [--base-url <url>] [--profile <file>] [--strict]
                          [--max-skipped-must <n>] [--report-dir <dir>] [--sign-key <key>]
                          [--waivers <file>] [--baseline <conformance.json>] [--strict-waivers]
  gatecheck verify <statement> --key <public key> [--report <conformance.json>]
                          [--allow-other-catalogue]
                          check a signed conformance statement and print the verdict its rules give
                          (exit 0: every check holds; 1: one line names the check that failed;
                          another catalogue version fails unless --allow-other-catalogue)
  gatecheck gate [reports/ | conformance.json]
                          the gate's decision read back from a report: the line and exit code the CLI
                          ends with (0 passed, 1 failed, 3 target unreachable; 2 unreadable), and its
                          GitHub annotations — for a run made through your own playwright.config
  gatecheck keygen [--out <prefix>] [--type ed25519|p256] [--format pem|jwk] [--force]
                          write a signing key pair: <prefix>.key (private, mode 0600), <prefix>.pub

Target
  --base-url <url>       target base URL (default: the profile's baseUrl; neither: the bundled mock)
  -p, --profile <file>   target profile JSON (default: the bundled mock's); required with --base-url
  --ca-cert <file>       PEM CA the target's certificate chains to (over the profile's tls.ca)

Selection
  --only <selector>      run only these rules; repeat or comma-separate
  --skip <selector>      leave these rules out
                         selector: a rule id (auth.401.challenge), an id pattern (jwt.attack.*),
                         or a tag (@must, @should, @info)
  --strict               SHOULD failures fail the run too (default: they are warnings)
  --max-skipped-must <n> fail (exit 1) when more than n MUST rules were skipped or not run;
                         0: every MUST rule must run (default: no limit, the verdict says "Partial")

Gate (docs/ci.md: adopting the gate on a target that fails today)
  --waivers <file>       accept failing rules listed with a reason and a last day:
                         {"waivers": [{"rule", "reason", "until": "YYYY-MM-DD", "endpoint"?, "ticket"?}]}
                         (default: the profile's "waivers"); an expired waiver fails the run
  --strict-waivers       a waiver that matched no failure (stale) fails the run too
  --baseline <file>      an earlier run's conformance.json: fail only on what got worse
                         (passed -> fails, a MUST rule ran -> unchecked, a new rule failing)
                         Waived and known failures stay failures in every report; the verdict
                         says so and the exit code follows the gate. Both are printed.

Run
  --seed <int>           fuzz seed (default ${DEFAULT_SEED}); the same seed replays the same cases
  --budget <int>         fuzz cases for the whole run (default: the profile's, else the suite's)
  --max-duration <time>  with a declared rate limit: size the fuzz cases to this wall time (300, 5m, 1h);
                         below what the checks alone need at the limit's pace: exit 2, before any request
  --shard <n/m>          run shard n of m and write a blob report to blob-report/;
                         combine the shards with "gatecheck merge-reports"
  --report-dir <dir>     where reports are written (default: reports/)
  --sign-key <key>       sign the report: writes conformance.intoto.jsonl (in-toto, DSSE);
                         <key>: an Ed25519 or ECDSA P-256 private key, PEM or JWK, as a file
                         or env:NAME (the variable holds the key)

Information
  --list-rules           print the rule catalogue (gatecheck rules --markdown: as Markdown)
  -h, --help             this text
  -v, --version          suite, catalogue and report schema versions

Reports (in the report dir)
  conformance.json       verdict per rule with evidence (schema: conformance.schema.json)
  conformance.html       self-contained page: verdict, counts, status x rule matrix, failures
  summary.md             Markdown summary (also appended to $GITHUB_STEP_SUMMARY when set)
  conformance.intoto.jsonl  with --sign-key: the signed statement (gatecheck verify checks it)
  junit.xml              JUnit XML; playwright-html/ Playwright's own HTML report;
                         test-results/ Playwright's output directory for the run

Examples
  gatecheck                                           the bundled mock, no set-up
  gatecheck --base-url https://staging.example.com --profile staging.json
  gatecheck --profile staging.json --only 'jwt.attack.*' --strict
  gatecheck --only auth.401.challenge,@should --skip server.500.fault
  gatecheck --profile target.json --max-skipped-must 0
  gatecheck --shard 1/2 && gatecheck --shard 2/2 && gatecheck merge-reports blob-report
  gatecheck --profile target.json --sign-key env:GATECHECK_SIGNING_KEY
  gatecheck --profile target.json --waivers waivers.json --baseline last/conformance.json

Exit codes
${exits}

Environment (flags win): BASE_URL, GATECHECK_PROFILE, GATECHECK_STRICT, GATECHECK_SEED,
GATECHECK_BUDGET, GATECHECK_REPORT_DIR, GATECHECK_MAX_SKIPPED_MUST; GATECHECK_TODAY (YYYY-MM-DD)
fixes the date waivers are compared with. Under GitHub Actions (GITHUB_ACTIONS=true) each failing
rule is also an annotation (::error, or ::warning when waived or known).
`;
}
