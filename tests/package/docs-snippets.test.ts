/**
 * Every fenced snippet of docs/package.md, docs/ci.md and docs/mock.md, run as a package user would run it:
 * in a fresh project holding the packed tarball, against mocks started with `npx gatecheck-mock` (issue #31:
 * the docs must not send a package user to a clone's paths). Each snippet has one entry in SNIPPETS below —
 * how it is run, or why it is not — and a snippet without one fails the inventory test, so a new example is
 * run from the day it is written.
 *
 * What is adapted, and only that: loopback URLs on a fixed port (http://127.0.0.1:3000) and the placeholder
 * hosts (https://staging.example) become the URL of a mock started for the test; placeholders in angle
 * brackets become the value they name; `npm run mock --` (a clone's command) becomes `npx gatecheck-mock`,
 * as docs/mock.md says; whole conformance runs get GATECHECK_BUDGET=400 (fewer fuzz cases, the same checks);
 * the sharded workflow's shards run one slice of the catalogue (`--only 'auth.401.*'`), so each is seconds.
 * Slow (npm install); skipped, saying so, only when the npm registry cannot be reached.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort } from '../../bench/free-port.ts';
import { type Consumer, createConsumer, ROOT, registryReachable } from './consumer.ts';
import { packedTarball } from './packed.ts';
import { killAll, listening, type Started, start } from './processes.ts';

const DOCS = ['docs/package.md', 'docs/ci.md', 'docs/mock.md'] as const;

interface Snippet {
  readonly file: string;
  readonly line: number;
  readonly lang: string;
  readonly text: string;
}

/** The fenced code blocks of a Markdown file, with the line of their opening fence. */
function snippetsOf(file: string, markdown: string): Snippet[] {
  const out: Snippet[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i] ?? '');
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && !/^```\s*$/.test(lines[i] ?? '')) body.push(lines[i] ?? '');
    out.push({ file, line: start + 1, lang: open[1] ?? '', text: body.join('\n') });
  }
  return out;
}

const snippets: Snippet[] = [];
for (const file of DOCS) snippets.push(...snippetsOf(file, await readFile(path.join(ROOT, file), 'utf8')));

/** What a run of a snippet has to work with. */
interface World {
  readonly consumer: Consumer;
  /** A mock started with `npx gatecheck-mock --port 0 --control-token <CONTROL_TOKEN>`. */
  readonly mock: string;
  /** A second one, for the several-targets example. */
  readonly other: string;
  /** Runs a shell script in the project, failing the test with its output unless it exits 0. */
  sh(script: string, env?: Record<string, string>, timeoutMs?: number): Promise<string>;
}

const CONTROL_TOKEN = 'docs-snippets-control-token';

interface Entry {
  readonly file: (typeof DOCS)[number];
  /** Matches the snippet's text (its first lines are enough). */
  readonly match: RegExp;
  /** Why it is not run, when it is not. */
  readonly notRun?: string;
  readonly run?: (snippet: Snippet, world: World) => Promise<void>;
}

/** http://127.0.0.1:3000 (and https://…example placeholders) → the test's mock. */
const onMock = (text: string, url: string): string =>
  text.replace(/http:\/\/127\.0\.0\.1:3000/g, url).replace(/https:\/\/(staging\.)?example\.com/g, url);

/** `npm run mock --` / `npm run mock` → `npx gatecheck-mock` (docs/mock.md "Run it"). */
const asPackage = (line: string): string =>
  line
    .replace(/npm run mock --(?=\s|$)/g, 'npx gatecheck-mock')
    .replace(/npm run mock(?=\s|$)/g, 'npx gatecheck-mock');

/** A header field line as node:http writes it: the name in lower case (RFC 9110 §5.1: names are case-insensitive). */
const fieldLine = (line: string): string => line.replace(/^[^:]+/, (name) => name.toLowerCase());

/** The mock's profile, as installed. */
const MOCK_PROFILE = 'node_modules/gatecheck/fixtures/mock.profile.json';

/** Starts `npx gatecheck-mock <args>` in the project and stops it once its banner is out; the banner. */
async function startAndStop(world: World, args: readonly string[]): Promise<string> {
  const mock = start('npx', ['gatecheck-mock', ...args], world.consumer.dir);
  try {
    await mock.waitFor(/Ctrl-C stops it\./, 60_000);
    return mock.output();
  } finally {
    process.kill(mock.pid, 'SIGTERM');
    await mock.exited;
    killAll(mock.descendants().map((p) => p.pid));
  }
}

/** A JSON configuration snippet: the mock starts with it (and stops). */
async function startsWithConfig(snippet: Snippet, world: World): Promise<void> {
  const file = `config-${snippet.line}.json`;
  await world.consumer.write(file, snippet.text);
  const banner = await startAndStop(world, ['--config', file, '--port', '0']);
  expect(banner).toContain('gatecheck mock listening on http://127.0.0.1:');
}

/** `run:` commands of a GitHub workflow, a folded `run: >` as the one line it stands for. */
function runSteps(yaml: string): string[] {
  const lines = yaml.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const single = /^\s*(?:- )?run: (?!>)(.+)$/.exec(line);
    if (single?.[1]) out.push(single[1]);
    if (!/^\s*(?:- )?run: >-?\s*$/.test(line)) continue;
    const indent = /^\s*/.exec(line)?.[0].length ?? 0;
    const folded: string[] = [];
    while (i + 1 < lines.length && (/^\s*/.exec(lines[i + 1] ?? '')?.[0].length ?? 0) > indent)
      folded.push((lines[++i] ?? '').trim());
    out.push(folded.join(' '));
  }
  return out;
}

/** A workflow's steps in the project: `${{ … }}` expressions filled in, npm ci left to the install already done. */
async function runWorkflow(
  snippet: Snippet,
  world: World,
  extra: (command: string) => string[],
): Promise<void> {
  const temp = path.join(world.consumer.dir, 'runner-temp');
  await mkdir(temp, { recursive: true });
  const profile = await world.consumer.read(MOCK_PROFILE);
  for (const step of runSteps(snippet.text)) {
    if (step === 'npm ci') continue;
    for (const command of extra(step)) {
      const script = command
        .replace(/\$\{\{\s*vars\.TARGET_URL\s*\}\}/g, world.mock)
        .replace(/\$\{\{\s*matrix\.shard\s*\}\}/g, '$SHARD');
      for (const shard of /\$SHARD/.test(script) ? ['1', '2', '3', '4'] : ['']) {
        await world.sh(script, {
          RUNNER_TEMP: temp,
          PROFILE_JSON: profile,
          SHARD: shard,
          GATECHECK_BUDGET: '400',
        });
      }
    }
  }
}

const SNIPPETS: readonly Entry[] = [
  // ---------------------------------------------------------------------------------------- docs/package.md
  {
    file: 'docs/package.md',
    match: /gatecheckProjects\(\{ profile: '\.\/staging\.profile\.json'/,
    run: async (snippet, world) => {
      const { consumer } = world;
      await consumer.write('playwright.config.ts', snippet.text);
      await mkdir(path.join(consumer.dir, 'tests'), { recursive: true });
      await consumer.write(
        'tests/own.spec.ts',
        "import { expect, test } from '@playwright/test';\ntest('own', () => expect(1).toBe(1));\n",
      );
      // As written, with no staging.profile.json: the run stops and says the file is missing.
      const missing = await consumer.run(
        'npx',
        ['playwright', 'test', '--grep', '@rule:auth\\.401\\.missing'],
        120_000,
      );
      expect(missing.code).toBe(1);
      const said = `${missing.stdout}\n${missing.stderr}`;
      expect(said).toContain('staging.profile.json does not exist (ENOENT)');
      expect(said).not.toContain('no test in this suite version checks this rule yet');
      // With the profile there and STAGING_URL set, the slice runs beside the project's own test.
      await consumer.write('staging.profile.json', await consumer.read(MOCK_PROFILE));
      await world.sh(`npx playwright test --grep '@rule:(auth\\.401\\.missing|observed\\.no-stack)|own'`, {
        STAGING_URL: world.mock,
      });
    },
  },
  {
    file: 'docs/package.md',
    match: /^npm install -D gatecheck {2,}# or the tarball/,
    run: async (snippet, world) => {
      // The package path (issue #31): at most six commands from an empty directory, none a copied secret.
      const commands = snippet.text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
      expect(commands.length).toBeLessThanOrEqual(6);
      const port = await freePort();
      const script = commands
        .filter((l) => !l.startsWith('npm install'))
        .map((l) => l.replace(/#.*$/, '').trim())
        .map((l) =>
          l === 'npx gatecheck-mock &'
            ? // The default port 3000 is fixed: a free one. The newcomer waits for the banner, the script for the port.
              `npx gatecheck-mock --port ${port} > path-mock.log 2>&1 &\ntrap 'kill $! 2>/dev/null' EXIT\n` +
              `for i in $(seq 100); do curl -sf -o /dev/null http://127.0.0.1:${port}/users && break; sleep 0.1; done`
            : l.replace(/127\.0\.0\.1:3000/g, `127.0.0.1:${port}`),
        )
        .join('\n');
      const out = await world.sh(script, { GATECHECK_BUDGET: '400' });
      expect(out).toContain('✔ Conformant at MUST and SHOULD levels');
      expect(out).toMatch(/MUST +\d+ pass · 0 fail · 0 warn · 0 skip · 0 not run/);
      // `kill $!` ended npx; the mock started under it stops within a quarter of a second (bin/entry.js).
      await expect.poll(() => listening(port), { timeout: 5000 }).toBe(false);
    },
  },
  {
    file: 'docs/package.md',
    match: /^npx gatecheck init \.\/openapi\.yaml --out target\.profile\.json \[--force\] \[--probe /,
    run: async (_snippet, world) => {
      // The synopsis's document: the mock's own (JSON is YAML); then the optional flags, each once.
      await world.sh(`curl -sf ${world.mock}/openapi.json > openapi.yaml`);
      // A project without the profile the path above wrote: init refuses to write over one without --force.
      await world.sh(
        'rm -f target.profile.json target.profile.env.example && npx gatecheck init ./openapi.yaml --out target.profile.json',
      );
      await world.sh(
        `npx gatecheck init ./openapi.yaml --out target.profile.json --force --probe ${world.mock}`,
      );
      expect(JSON.parse(await world.consumer.read('target.profile.json')).endpoints).toBeDefined();
    },
  },
  // --------------------------------------------------------------------------------------------- docs/ci.md
  {
    file: 'docs/ci.md',
    match: /^npx gatecheck keygen --out vendor /,
    notRun:
      "run as written from the installed tarball by tests/package/install.test.ts (docs/ci.md's commands for publishing a conformance statement), a tampered report included",
  },
  {
    file: 'docs/ci.md',
    match: /^ {6}- name: Conformance, signed\n/,
    notRun:
      'a step of a GitHub Actions workflow with the key from its secret store; tests/attest/ read a key from env:NAME (keys.test.ts, args.test.ts) and sign real runs (signed-run.test.ts)',
  },
  {
    file: 'docs/ci.md',
    match: /^# \.github\/workflows\/conformance\.yml/,
    run: (snippet, world) => runWorkflow(snippet, world, (step) => [step]),
  },
  {
    file: 'docs/ci.md',
    match: /# Every MUST rule must run/,
    run: (snippet, world) => runWorkflow(snippet, world, (step) => [step]),
  },
  {
    file: 'docs/ci.md',
    match: /^# \.github\/workflows\/conformance-sharded\.yml/,
    run: async (snippet, world) => {
      // The shards' blob reports land where the verdict job downloads them (upload/download-artifact).
      await runWorkflow(snippet, world, (step) =>
        /--shard/.test(step)
          ? [`${step} --only 'auth.401.*'`]
          : /merge-reports all-blob-reports/.test(step)
            ? [`rm -rf all-blob-reports && cp -r blob-report all-blob-reports && ${step}`]
            : [step],
      );
      expect(await world.consumer.read('reports/junit.xml')).toContain('<testsuites');
    },
  },
  {
    file: 'docs/ci.md',
    match: /^\/\/ conformance\.targets\.config\.ts/,
    run: async (snippet, world) => {
      const { consumer } = world;
      await mkdir(path.join(consumer.dir, 'profiles'), { recursive: true });
      const profile = await consumer.read(MOCK_PROFILE);
      await consumer.write('profiles/staging.json', profile);
      await consumer.write('profiles/eu.json', profile);
      await consumer.write(
        'conformance.targets.config.ts',
        snippet.text
          .replace('https://staging.example', world.mock)
          .replace('https://eu.example', world.other),
      );
      const out = await world.sh(
        "npx playwright test -c conformance.targets.config.ts --grep '@rule:(auth\\.401\\.missing|observed\\.no-stack)'",
      );
      for (const project of ['[staging]', '[staging-observers]', '[eu]', '[eu-observers]'])
        expect(out).toContain(project);
      expect(await consumer.read('reports/junit.xml')).toContain('auth.401.missing');
    },
  },
  {
    file: 'docs/ci.md',
    match: /^npm ci\nnpx gatecheck --base-url "\$TARGET_URL"/,
    run: async (snippet, world) => {
      const commands = snippet.text.split('\n').filter((l) => l.startsWith('npx '));
      await world.sh(commands.join('\n'), {
        TARGET_URL: world.mock,
        PROFILE_FILE: MOCK_PROFILE,
        GATECHECK_BUDGET: '400',
      });
    },
  },
  // docs/ci.md "Adopting the gate on a target that fails today": its commands exit 1 on purpose (steps 1, 3, 4), so
  // world.sh cannot run them; tests/gate/transcript.test.ts runs the same steps against the same defects and
  // checks the lines shown.
  {
    file: 'docs/ci.md',
    match: /^npx gatecheck-mock --port 4000 --defect post-201 --defect put-204 &/,
    notRun: 'step 1 exits 1 on purpose; tests/gate/transcript.test.ts runs it (test 1)',
  },
  {
    file: 'docs/ci.md',
    match: /^✘ Not conformant: 2 MUST rules fail\n/,
    notRun: "step 1's output; tests/gate/transcript.test.ts checks its lines (test 1)",
  },
  {
    file: 'docs/ci.md',
    match: /^\{\n {2}"waivers": \[/,
    notRun: 'the waiver file of the example; tests/gate/transcript.test.ts writes and uses it (WAIVERS)',
  },
  {
    file: 'docs/ci.md',
    match: /--waivers waivers\.json --baseline gatecheck-baseline\.json$/,
    notRun:
      'needs the defective mock of step 1 and its baseline; tests/gate/transcript.test.ts runs it (test 2)',
  },
  {
    file: 'docs/ci.md',
    match: /^✘ Not conformant: 2 MUST rules fail \(1 waived/,
    notRun: "step 2's output; tests/gate/transcript.test.ts checks its lines (test 2)",
  },
  {
    file: 'docs/ci.md',
    match: /^gatecheck: exit 1 \(Gate failed: success\.200\.delete/,
    notRun: "step 3's output; tests/gate/transcript.test.ts checks it (test 3)",
  },
  {
    file: 'docs/ci.md',
    match: /^gatecheck: exit 1 \(Gate failed: waiver for success\.200\.post expired/,
    notRun: "step 4's output; tests/gate/transcript.test.ts checks it (test 4)",
  },
  {
    file: 'docs/ci.md',
    match: /^ {2}fixed, passing now \(1\): success\.200\.put/,
    notRun: "step 5's output; tests/gate/transcript.test.ts checks it (test 5)",
  },
  {
    file: 'docs/ci.md',
    match: /^ {6}- name: Conformance \(your own Playwright config\)/,
    notRun:
      "steps of a GitHub Actions workflow in the user's own repository; tests/package/config-route-gate.test.ts runs the same route — a guest config with GATECHECK_WAIVERS and GATECHECK_BASELINE, then `gatecheck gate` on its reports, exit 3 for a target that does not answer",
  },
  {
    file: 'docs/ci.md',
    match: /^ {6}- name: Conformance \(gate on what got worse\)/,
    notRun:
      'a workflow step over a baseline and waivers kept in the repository; the flags are run by tests/gate/transcript.test.ts',
  },
  {
    file: 'docs/ci.md',
    match: /^conformance:\n {2}image: node:20/,
    notRun:
      'a GitLab CI job; its command is the one tests/gate/transcript.test.ts runs, its JUnit file is checked there (test 2)',
  },
  // ------------------------------------------------------------------------------------------- docs/mock.md
  {
    file: 'docs/mock.md',
    match: /^npm run mock {26}# http:\/\/127\.0\.0\.1:3000/,
    run: async (snippet, world) => {
      // mock.json: the configuration example of the same page ("Example — a staging-like realm").
      const example = snippets.find(
        (s) => s.file === 'docs/mock.md' && s.text.includes('"realm": "staging"'),
      );
      await world.consumer.write('mock.json', example?.text ?? '');
      for (const line of snippet.text.split('\n')) {
        const words = asPackage(line.replace(/#.*$/, '').trim()).split(/\s+/).slice(2);
        // The default port 3000 is fixed: a test takes any free one.
        const args = words.includes('--port') ? words : [...words, '--port', '0'];
        expect(await startAndStop(world, args), line).toContain('listening on');
      }
    },
  },
  {
    file: 'docs/mock.md',
    match: /^curl -i -u 'bob:s3cret:päss' http:\/\/127\.0\.0\.1:3000\/protected/,
    run: async (snippet, world) => {
      const oauth = JSON.parse(
        await world.consumer.read('node_modules/gatecheck/fixtures/mock.oauth.profile.json'),
      );
      const secret = oauth.identities.admin.token.oauth2.clientSecret as string;
      const out = await world.sh(
        onMock(snippet.text, world.mock).replace('<secret from the banner>', secret),
      );
      expect(out).toMatch(/^HTTP\/1\.1 200/m);
      expect(out).toContain('"access_token"');
      expect(out).toContain('"keys"');
    },
  },
  {
    file: 'docs/mock.md',
    match: /^import \{ createRemoteJWKSet, jwtVerify \} from 'jose';/,
    run: async (snippet, world) => {
      const token = await world.sh(
        `curl -sf -u "$GATECHECK_ADMIN_CLIENT_ID:$GATECHECK_ADMIN_CLIENT_SECRET" -d grant_type=client_credentials ${world.mock}/oauth/token`,
        await printedEnv(world),
      );
      await world.consumer.write(
        'verify.ts',
        `const token = process.env.TOKEN as string;\n${onMock(snippet.text, world.mock)}\nconsole.log(payload.sub);\n`,
      );
      const out = await world.sh('npx tsx verify.ts', { TOKEN: JSON.parse(token).access_token });
      expect(out.trim()).toBe('alice');
    },
  },
  {
    file: 'docs/mock.md',
    match: /^eval "\$\(npx gatecheck-mock --print-env\)"/,
    run: async (snippet, world) => {
      const out = await world.sh(`${snippet.text}\necho "$GATECHECK_ADMIN_PASSWORD"`);
      expect(out.trim()).toBe('wonderland-admin');
    },
  },
  {
    file: 'docs/mock.md',
    match: /^import \{ startMock \} from 'gatecheck\/mock';/,
    run: async (snippet, world) => {
      await world.consumer.write('program.ts', `${snippet.text}\nconsole.log(res.status);\n`);
      expect((await world.sh('npx tsx program.ts')).trim()).toBe('200');
    },
  },
  {
    file: 'docs/mock.md',
    match: /^WWW-Authenticate: Bearer realm="gatecheck"\n/,
    run: async (snippet, world) => {
      // The challenges of a route taking every scheme (POST /users), without credentials.
      const out = await world.sh(`curl -s -D - -o /dev/null -X POST ${world.mock}/users`);
      for (const line of snippet.text.split('\n')) expect(out.replace(/\r/g, '')).toContain(fieldLine(line));
    },
  },
  { file: 'docs/mock.md', match: /"realm": "staging"/, run: startsWithConfig },
  {
    file: 'docs/mock.md',
    match: /^gatecheck mock: policy\.routes\[2\]/,
    notRun:
      'sample output of refused configurations; tests/mock/config.test.ts and cli.test.ts check the messages',
  },
  {
    file: 'docs/mock.md',
    match: /^RateLimit-Policy: "default";q=3000;w=10/,
    run: async (_snippet, world) => {
      const out = await world.sh(`curl -s -D - -o /dev/null ${world.mock}/users`);
      expect(out).toContain(fieldLine('RateLimit-Policy: "default";q=3000;w=10'));
      expect(out).toMatch(/ratelimit: "default";r=\d+;t=\d+/);
    },
  },
  {
    file: 'docs/mock.md',
    match: /"key": "address", "limit": 60, "windowSeconds": 10 \} \} \} \}$/,
    run: startsWithConfig,
  },
  { file: 'docs/mock.md', match: /"burstLimit": 10, "burstWindowSeconds": 0\.25/, run: startsWithConfig },
  { file: 'docs/mock.md', match: /"banAfter": 3, "banSeconds": 5/, run: startsWithConfig },
  {
    file: 'docs/mock.md',
    match: /^npm run mock -- --port 3001 --redis-url/,
    notRun:
      'needs a Redis server on the fixed port 6379; tests/mock/access/ run the Redis store against one on a free port',
  },
  {
    file: 'docs/mock.md',
    match: /^\{ "store": \{ "type": "redis"/,
    notRun:
      'would connect to 127.0.0.1:6379, a fixed port another program may hold; the schema test of mock-config covers its keys',
  },
  {
    file: 'docs/mock.md',
    match: /^npx gatecheck-mock --openapi https:\/\/petstore3\.swagger\.io/,
    notRun:
      'reads a published document from the network; tests/mock/stand-in run the same steps on local documents over loopback (print-env.test.ts: --openapi --print-env and init; corpus.test.ts: mock, init on its /openapi.json, a run)',
  },
  {
    file: 'docs/mock.md',
    match: /^upstream gatecheck_mock/,
    notRun: 'an nginx configuration on fixed ports (3001, 3002, 8080)',
  },
  {
    file: 'docs/mock.md',
    match: /^redis-server --port 6379/,
    notRun: 'starts Redis and two mocks on fixed ports (6379, 3001, 3002) behind the nginx above',
  },
  {
    file: 'docs/mock.md',
    match: /^T=<token from the banner>/,
    run: async (snippet, world) => {
      const script = onMock(snippet.text, world.mock).replace('<token from the banner>', CONTROL_TOKEN);
      const out = await world.sh(script);
      // The journal, the clock moved an hour, the fault rules, the reset: one JSON answer each.
      for (const key of ['"entries"', '"offsetMs":3600000', '"rules"', '"reset"']) expect(out).toContain(key);
    },
  },
  { file: 'docs/mock.md', match: /"clockOffsetSeconds": 0,/, run: startsWithConfig },
];

/** The environment `eval "$(npx gatecheck-mock --print-env)"` sets. */
async function printedEnv(world: World): Promise<Record<string, string>> {
  const out = await world.sh(`eval "$(npx gatecheck-mock --print-env)" && env`);
  return Object.fromEntries(
    out
      .split('\n')
      .filter((l) => l.startsWith('GATECHECK_'))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

const entryOf = (snippet: Snippet): Entry[] =>
  SNIPPETS.filter((e) => e.file === snippet.file && e.match.test(snippet.text));
const label = (snippet: Snippet): string =>
  `${snippet.file}:${snippet.line} (${snippet.text.split('\n')[0]?.slice(0, 60)})`;

test('every snippet of docs/package.md, docs/ci.md and docs/mock.md is run here, or says why not', () => {
  const unhandled = snippets
    .filter((s) => entryOf(s).length !== 1)
    .map((s) => `${label(s)}: ${entryOf(s).length} entries`);
  expect(unhandled, 'add one entry per snippet to SNIPPETS').toEqual([]);
  const unused = SNIPPETS.filter((e) => !snippets.some((s) => s.file === e.file && e.match.test(s.text)));
  expect(
    unused.map((e) => `${e.file} ${e.match}`),
    'entries matching no snippet',
  ).toEqual([]);
});

test.describe('from the installed tarball', () => {
  test.describe.configure({ mode: 'serial', timeout: 5 * 60_000 });

  let world: World | undefined;
  const mocks: Started[] = [];

  test.beforeAll(async () => {
    test.setTimeout(8 * 60_000);
    test.skip(
      !(await registryReachable()),
      'npm registry unreachable (npm ping failed): cannot install the tarball',
    );
    const devPins = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')).devDependencies;
    const consumer = await createConsumer(await packedTarball(), [`tsx@${devPins.tsx}`]);
    const urls: string[] = [];
    for (let i = 0; i < 2; i++) {
      const mock = start(
        'npx',
        ['gatecheck-mock', '--port', '0', '--control-token', CONTROL_TOKEN],
        consumer.dir,
      );
      mocks.push(mock);
      urls.push((await mock.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/, 60_000))[1] ?? '');
    }
    world = {
      consumer,
      mock: urls[0] ?? '',
      other: urls[1] ?? '',
      sh: async (script, env = {}, timeoutMs = 4 * 60_000) => {
        await writeFile(path.join(consumer.dir, 'snippet.sh'), `set -e\n${script}\n`);
        const result = await consumer.run('bash', ['snippet.sh'], timeoutMs, env);
        expect(
          result.code,
          `${script}\n---\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-2000)}`,
        ).toBe(0);
        return result.stdout;
      },
    };
  });

  test.afterAll(async () => {
    for (const mock of mocks) {
      process.kill(mock.pid, 'SIGTERM');
      await mock.exited;
      killAll(mock.descendants().map((p) => p.pid));
    }
    await world?.consumer.dispose();
  });

  for (const snippet of snippets) {
    const [entry] = entryOf(snippet);
    if (entry?.run === undefined) continue;
    const run = entry.run;
    test(`${label(snippet)} runs from the installed package`, async () => {
      if (!world) throw new Error('no project');
      await run(snippet, world);
    });
  }
});
