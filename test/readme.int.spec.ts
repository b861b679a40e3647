/**
 * README "Calling it": "paste these blocks one after another (bash or zsh ...): later blocks use the
 * variables that earlier ones set. Each answer is shown below its block". Against the real
 * `npm start` on the README's address (http://localhost:8080, sandbox on 8090) with a fresh data
 * directory: every ```sh block runs unmodified, in order, in one bash session and then in one zsh
 * session (`zsh -f`: no rc files), each sequence twice (the blocks must run again without failing),
 * and what a block prints must be the answer shown in the ```json block after it, by the rule of
 * test/support/readme.ts `normalize`. The ```python and ```java programs of docs/conventions.md
 * ("Signing interface B requests") must sign a request and print the stations.
 *
 * The reference pages of docs/ that show examples the same way (docs/carrier-sandbox.md,
 * docs/operations.md) are run by the same rules against the same `npm start`: each page in sessions
 * of its own (it sets every variable it uses), twice, in bash and in zsh. docs/webhooks.md's example
 * starts the server its own way (`PARCEL_WEBHOOK_ALLOW_PRIVATE=on npm start`, for its receiver on
 * 127.0.0.1:8091): its blocks run by the same rules against an `npm start` with the settings its
 * first block shows, once the first server has stopped.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childPath, npmStart, portOpen, ROOT, stopGroup } from './support/npmStart.ts';
import type { NpmStart } from './support/npmStart.ts';
import { fencedBlocks, formatJson, jsonDocuments, normalize } from './support/readme.ts';
import type { FencedBlock } from './support/readme.ts';

jest.setTimeout(300_000);

const blocks = fencedBlocks(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));

// Left out: shell blocks that start or stop long-running things or are not examples of calling
// the service (`npm start`, `npm test`, `npm run bench`, `npm run services`, `npm run infra` and
// `infra:down`, `docker compose ...`). This test runs `npm start` itself, as the README says to
// before "Calling it".
const NOT_AN_EXAMPLE = /\b(npm (start|test)|npm run (bench|services|infra)|docker compose)\b/;

// The docs pages leave out, besides those, the blocks of procedures rather than calls: stopping the
// server (`kill`, `pgrep`), deleting, copying or moving its data (`rm`, `cp`, `mv`) and working on
// the stores of the distributed stack (`psql`), each a command at the start of a line. Run here,
// they would stop or wipe the very `npm start` the examples call; test/start.int.spec.ts runs the
// stop, reset and backup procedures of docs/operations.md on a server of its own instead.
const NOT_AN_EXAMPLE_IN_DOCS = new RegExp(`${NOT_AN_EXAMPLE.source}|^\\s*(kill|pgrep|rm|cp|mv|psql)\\b`, 'm');

interface Example {
  block: FencedBlock;
  /** The ```json block right after it (the next fenced block), if any. */
  shown: FencedBlock | undefined;
}

interface Page {
  /** The file, relative to the repository root. */
  file: string;
  examples: Example[];
}

function examplesOf(pageBlocks: FencedBlock[], notAnExample: RegExp): Example[] {
  return pageBlocks.flatMap((block, i) =>
    block.lang === 'sh' && !notAnExample.test(block.text)
      ? [{ block, shown: pageBlocks[i + 1]?.lang === 'json' ? pageBlocks[i + 1] : undefined }]
      : [],
  );
}

const readme: Page = { file: 'README.md', examples: examplesOf(blocks, NOT_AN_EXAMPLE) };
const DOCS_PAGES = ['docs/carrier-sandbox.md', 'docs/operations.md'];
const docsPages: Page[] = DOCS_PAGES.map((file) => ({
  file,
  examples: examplesOf(fencedBlocks(readFileSync(path.join(ROOT, file), 'utf8')), NOT_AN_EXAMPLE_IN_DOCS),
}));

// docs/webhooks.md stops its own receiver (`kill`) and deletes its file (`rm`): the README's rule
// applies, which leaves out only its first block, the server's start.
const WEBHOOKS_PAGE = 'docs/webhooks.md';
const webhooksBlocks = fencedBlocks(readFileSync(path.join(ROOT, WEBHOOKS_PAGE), 'utf8'));
const webhooksPage: Page = { file: WEBHOOKS_PAGE, examples: examplesOf(webhooksBlocks, NOT_AN_EXAMPLE) };
/** The port of the page's receiver, which its examples start and stop. */
const RECEIVER_PORT = 8091;
const PASSES = 2;

const work = mkdtempSync(path.join(tmpdir(), 'parcel-readme-'));
let service: NpmStart | undefined;

/** The ports the pages name, or a clear failure: this test cannot move them. */
async function claim(port: number): Promise<void> {
  const taken = await new Promise<string | undefined>((resolve) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? String(err)));
    server.listen(port, () => server.close(() => resolve(undefined)));
  });
  if (taken || (await portOpen(port))) {
    throw new Error(
      `port ${port} is taken (${taken ?? 'something answers on it'}): test/readme.int.spec.ts runs \`npm start\` on the README's ports 8080 and 8090, and docs/webhooks.md's receiver on 8091; stop what listens there (an \`npm start\` or \`npm run services\` of your own?) and run it again`,
    );
  }
}

/** `npm start` on the README's ports with a fresh data directory and the given settings; stopped by `stop`. */
async function serve(settings: Record<string, string> = {}): Promise<void> {
  await claim(8080);
  await claim(8090);
  service = await npmStart({
    ...settings,
    PORT: '8080',
    PARCEL_SANDBOX_PORT: '8090',
    PARCEL_DATA_DIR: mkdtempSync(path.join(work, 'data-')),
  });
}

async function stop(): Promise<void> {
  if (service) await stopGroup(service.pid);
  service = undefined;
}

afterAll(async () => {
  await stop();
  rmSync(work, { recursive: true, force: true });
});

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end (at most `timeoutMs`), from the repository root unless told otherwise. */
function run(command: string, args: string[], options: { cwd?: string; timeoutMs?: number } = {}): Promise<Ran> {
  // What the user's shell has: this Node (24) first on the PATH. No BASH_ENV/ENV start-up files.
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: childPath() };
  delete env.BASH_ENV;
  delete env.ENV;
  return new Promise((resolve, reject) => {
    // A group of its own: whatever the session left running in the background (a page's receiver,
    // when a block failed before the one that stops it) is stopped with it, and frees its output.
    const child = spawn(command, args, {
      cwd: options.cwd ?? ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 240_000,
      detached: true,
    });
    child.once('exit', () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // nothing left in the group
      }
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.once('error', (e) =>
      reject(
        new Error(
          `${command}: ${e.message} (npm test installs what scripts/apt-packages.txt lists; or bash infra/apt.sh ${command})`,
        ),
      ),
    );
    child.once('close', (code, signal) =>
      resolve({ code, signal, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }),
    );
  });
}

const marker = (pass: number, i: number) => `@@EXAMPLE pass ${pass} block ${i}@@`;
const where = (page: Page, shell: string, pass: number, example: Example) =>
  `${shell}, pass ${pass}: the sh block at ${page.file} line ${example.block.line} (${example.block.text.split('\n')[0]})`;

/** Every example of a page in order, PASSES times, in one session of `shell`; the output of each block by pass and index. */
async function runExamples(page: Page, shell: 'bash' | 'zsh'): Promise<Map<string, string>> {
  const { examples } = page;
  // `set -e` (and pipefail) so that a failing command fails the run, as it would be seen in a terminal.
  const lines = ['set -e', 'set -o pipefail'];
  for (let pass = 1; pass <= PASSES; pass++) {
    examples.forEach((example, i) => lines.push(`printf '\\n%s\\n' '${marker(pass, i)}'`, example.block.text));
  }
  const script = path.join(work, `examples-${page.file.replace(/\W+/g, '-')}.${shell}`);
  writeFileSync(script, lines.join('\n'));
  const ran = await run(shell, shell === 'zsh' ? ['-f', script] : [script]);
  const parts = ran.stdout.split(/\n@@EXAMPLE pass (\d+) block (\d+)@@\n/);
  const outputs = new Map<string, string>();
  for (let i = 1; i < parts.length; i += 3) outputs.set(`${parts[i]}:${parts[i + 1]}`, parts[i + 2]!);
  if (ran.code !== 0) {
    const [pass, index] = [...outputs.keys()].at(-1)?.split(':').map(Number) ?? [1, 0];
    throw new Error(
      `${where(page, shell, pass!, examples[index!]!)} failed (exit ${ran.code ?? ran.signal}).\nstderr:\n${ran.stderr.slice(-3000)}\nstdout of the block:\n${outputs.get(`${pass}:${index}`)?.slice(-3000)}`,
    );
  }
  return outputs;
}

/** The mismatches between what each block printed and what the page shows after it. */
function mismatches(page: Page, shell: string, outputs: Map<string, string>): string[] {
  const found: string[] = [];
  for (let pass = 1; pass <= PASSES; pass++) {
    page.examples.forEach((example, i) => {
      const printed = outputs.get(`${pass}:${i}`);
      const at = where(page, shell, pass, example);
      if (printed === undefined) return void found.push(`${at}: no output captured`);
      if (!example.shown) {
        if (printed.trim() !== '') found.push(`${at} prints something but no \`\`\`json block shows it:\n${printed}`);
        return;
      }
      let documents: unknown[];
      try {
        documents = jsonDocuments(printed);
      } catch (err) {
        return void found.push(`${at} printed something that is not JSON answers: ${(err as Error).message}`);
      }
      const actual = documents.map(normalize);
      const expected = jsonDocuments(example.shown.text).map(normalize);
      try {
        expect(actual).toEqual(expected);
      } catch (err) {
        found.push(
          `${at} printed other answers than ${page.file} shows (per-run values replaced by their kind):\n${(err as Error).message}\n\nprinted, formatted as in ${page.file}:\n${documents.map((d) => formatJson(d)).join('\n\n')}`,
        );
      }
    });
  }
  return found;
}

/** Runs a page's examples in one session of `shell` and fails with every mismatch found. */
async function expectAnswersShown(page: Page, shell: 'bash' | 'zsh'): Promise<void> {
  const outputs = await runExamples(page, shell);
  const found = mismatches(page, shell, outputs);
  if (found.length > 0) throw new Error(found.join('\n\n----\n\n'));
}

describe('on `npm start`', () => {
  beforeAll(() => serve());
  afterAll(stop);

  test('README "Calling it" has shell examples, and every answer it shows is JSON', () => {
    expect(readme.examples.length).toBeGreaterThan(0);
    for (const { shown } of readme.examples) if (shown) expect(jsonDocuments(shown.text).length).toBeGreaterThan(0);
  });

  test.each(['bash', 'zsh'] as const)(
    'README "paste these blocks one after another (bash or zsh ...)": every sh block runs unmodified in %s, twice in one session, and prints the answers shown below it',
    (shell) => expectAnswersShown(readme, shell),
  );

  test.each(DOCS_PAGES)('%s has shell examples, each followed by the JSON answers it prints', (file) => {
    const page = docsPages.find((p) => p.file === file)!;
    expect(page.examples.length).toBeGreaterThan(0);
    for (const { block, shown } of page.examples) {
      if (!shown) throw new Error(`${file} line ${block.line}: an example without the \`\`\`json block of its answer`);
      expect(jsonDocuments(shown.text).length).toBeGreaterThan(0);
    }
  });

  test.each(DOCS_PAGES.flatMap((file) => (['bash', 'zsh'] as const).map((shell) => [file, shell] as const)))(
    '%s: every example runs unmodified in %s, twice in a session of its own, and prints the answers shown below it',
    (file, shell) =>
      expectAnswersShown(
        docsPages.find((p) => p.file === file)!,
        shell,
      ),
  );

  const signing = fencedBlocks(readFileSync(path.join(ROOT, 'docs/conventions.md'), 'utf8'));

  /** The one block of a language in docs/conventions.md. */
  function program(lang: string): FencedBlock {
    const found = signing.filter((b) => b.lang === lang);
    expect(found).toHaveLength(1);
    return found[0]!;
  }

  /** docs/conventions.md "each program signs a request for the stations near postcode 238858 and prints the answer". */
  function expectStations(ran: Ran): void {
    if (ran.code !== 0)
      throw new Error(`exit ${ran.code ?? ran.signal}:\n${ran.stderr.slice(-3000)}\n${ran.stdout.slice(-3000)}`);
    const documents = jsonDocuments(ran.stdout);
    expect(documents).toHaveLength(1);
    const answer = documents[0] as { code: number; message: string; data: { Zipcode: string; Station_Code: string }[] };
    expect(answer).toMatchObject({ code: 0, message: 'success' });
    expect(answer.data.length).toBeGreaterThan(0);
    expect(answer.data[0]!.Zipcode).toBe('238858');
    for (const station of answer.data) expect(station.Station_Code).toMatch(/^SGL\d+$/);
  }

  test('docs/conventions.md "Signing interface B requests": the Python program (standard library only) signs a request and prints the stations', async () => {
    const dir = mkdtempSync(path.join(work, 'python-'));
    writeFileSync(path.join(dir, 'sign.py'), program('python').text);
    expectStations(await run('python3', ['sign.py'], { cwd: dir }));
  });

  test('docs/conventions.md "Signing interface B requests": the Java program runs as `java Sign.java`, signs a request and prints the stations', async () => {
    const source = program('java').text;
    const name = /public\s+class\s+(\w+)/.exec(source)?.[1];
    expect(name).toBeDefined();
    const dir = mkdtempSync(path.join(work, 'java-'));
    writeFileSync(path.join(dir, `${name}.java`), source);
    expectStations(await run('java', [`${name}.java`], { cwd: dir }));
  });
});

describe(`${WEBHOOKS_PAGE} on the \`npm start\` its example starts`, () => {
  /** The settings of the page's first block, `NAME=value ... npm start`. */
  const start = webhooksBlocks.find((b) => b.lang === 'sh' && /\bnpm start\b/.test(b.text));
  const settings = Object.fromEntries(
    [...(start?.text.match(/^((?:\w+=\S+ )*)npm start\s*$/)?.[1] ?? '').matchAll(/(\w+)=(\S+)/g)].map((m) => [
      m[1]!,
      m[2]!,
    ]),
  );

  beforeAll(async () => {
    await claim(RECEIVER_PORT);
    await serve(settings);
  });
  afterAll(stop);

  test("the page starts the server with PARCEL_WEBHOOK_ALLOW_PRIVATE=on, for a receiver on 127.0.0.1:8091; every example is followed by the JSON answers it prints, but the receiver's start", () => {
    expect(start?.text.trim()).toBe('PARCEL_WEBHOOK_ALLOW_PRIVATE=on npm start');
    expect(settings).toEqual({ PARCEL_WEBHOOK_ALLOW_PRIVATE: 'on' });
    expect(webhooksPage.examples[0]!.block.text).toContain(`.listen(${RECEIVER_PORT}, "127.0.0.1")`);
    expect(webhooksPage.examples[0]!.shown).toBeUndefined();
    expect(webhooksPage.examples.length).toBeGreaterThan(4);
    for (const { block, shown } of webhooksPage.examples.slice(1)) {
      if (!shown)
        throw new Error(`${WEBHOOKS_PAGE} line ${block.line}: an example without the \`\`\`json block of its answer`);
      expect(jsonDocuments(shown.text).length).toBeGreaterThan(0);
    }
  });

  test.each(['bash', 'zsh'] as const)(
    'every example runs unmodified in %s, twice in a session of its own, and prints the answers shown below it: a signed delivery that verifies, and the delivery log',
    (shell) => expectAnswersShown(webhooksPage, shell),
  );
});
