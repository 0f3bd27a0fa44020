// The README's quick start and the site's, walked as a newcomer would, on a fresh clone: every
// line of the bash blocks marked `<!-- readme-walk` runs in order, as written, on a machine with
// only Node and the clone — except that the clone is taken from a copy of this checkout's
// tracked files instead of the network, and npm prefers its cache (the third-party packages are
// the registry's either way). Lines that serve (`npm run dev`) are started, sent an `initialize`
// and stopped once they answer it. Heavy (a monorepo `npm ci`, a build, a scaffold with its
// install: minutes), so it runs in its own CI step (`npm run test:walk`), not in `npm test`.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY_URL } from '../src/templates.ts';
import { REPO_ROOT, run, tempDir } from './support/cli.ts';
import { cleanEnv } from './support/packed.ts';

const MARKER = '<!-- readme-walk';

/** The command lines of the bash blocks after each walk marker of `file`, without comments. */
export function walkedBlocks(file: string): string[][] {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  const blocks: string[][] = [];
  for (let at = text.indexOf(MARKER); at >= 0; at = text.indexOf(MARKER, at + 1)) {
    const fence = /```bash\n([\s\S]*?)```/.exec(text.slice(at));
    if (!fence) throw new Error(`${file}: no bash block after a "${MARKER}" marker`);
    blocks.push(
      fence[1]
        .split('\n')
        .map((line) => line.replace(/\s+# .*$/, '').trim())
        .filter((line) => line !== ''),
    );
  }
  return blocks;
}

const NPM_ENV = cleanEnv({
  npm_config_prefer_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
});

/** A git repository holding this checkout's tracked files as they are now, to clone from. */
function originCopy(dir: string): string {
  // Named as the URL ends, so `git clone` names its folder `mcp-fw` as it would from the URL.
  const origin = join(dir, 'remote', 'mcp-fw.git');
  const files = spawnSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' })
    .stdout.split('\0')
    .filter((file) => file !== '' && existsSync(join(REPO_ROOT, file)));
  for (const file of files) {
    mkdirSync(dirname(join(origin, file)), { recursive: true });
    copyFileSync(join(REPO_ROOT, file), join(origin, file));
  }
  const git = (...args: string[]) => {
    const result = spawnSync('git', args, { cwd: origin, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  };
  git('init', '--quiet');
  git('add', '-A');
  git('-c', 'user.name=walk', '-c', 'user.email=walk@localhost', 'commit', '--quiet', '-m', 'copy');
  return origin;
}

/** A command that serves: started, asked to `initialize`, stopped once it answers. */
const SERVES = /^npm run dev$/;

/** Runs `line` with bash in `cwd`; returns the directory it ends in (a line may `cd`). */
async function runLine(line: string, cwd: string, where: string, log: string[]): Promise<string> {
  // The line's own status (that of an `a && b` list is its first failure's), then where it is.
  const result = await run('bash', ['-c', `${line}\nstatus=$?\npwd > ${where}\nexit $status`], {
    cwd,
    env: NPM_ENV,
    replaceEnv: true,
  });
  log.push(`$ ${line}\n${result.stdout}${result.stderr}`);
  expect(result.status, `\`${line}\` in ${cwd}:\n${result.stdout}\n${result.stderr}`).toBe(0);
  return readFileSync(where, 'utf8').trim();
}

/** Starts a serving line, sends `initialize` on stdin, resolves with the answer, stops it. */
function serveLine(line: string, cwd: string): Promise<{ serverInfo: { name: string } }> {
  const child = spawn('bash', ['-c', line], { cwd, env: NPM_ENV, detached: true });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.write(
    `${JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'walk', version: '1' },
      },
    })}\n`,
  );
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(
        new Error(`\`${line}\` did not answer initialize in 3 minutes:\n${stdout}\n${stderr}`),
      );
    }, 180_000);
    child.on('exit', () => clearTimeout(timer));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const answer = stdout.split('\n').find((l) => l.startsWith('{') && l.includes('"id":1'));
      if (answer) {
        stop();
        resolve(JSON.parse(answer).result);
      }
    });
    child.on('exit', (code) =>
      reject(new Error(`\`${line}\` exited (${code}) before answering:\n${stdout}\n${stderr}`)),
    );
  });
}

describe("the Quick start's first command, `npm create mcp-server@latest my-server` (README and site): npm 404", () => {
  const work = tempDir('walk');
  const log: string[] = [];
  let origin: string;

  beforeAll(() => {
    origin = originCopy(work.dir);
  }, 120_000);
  // Two installed trees (hundreds of MB): removed in the background, not waited for.
  afterAll(() => spawn('rm', ['-rf', work.dir], { detached: true, stdio: 'ignore' }).unref());

  it('lead with what works: clone, one command, a scaffolded project — and the registry route only as coming with the first release', () => {
    for (const [file, from] of [
      ['README.md', '## Quick start'],
      ['docs/quick-start.md', '## 1.'],
      ['docs/guide/scaffolder.md', '# Scaffolder'],
    ]) {
      const text = readFileSync(join(REPO_ROOT, file), 'utf8');
      const section = text.slice(text.indexOf(from));
      // The first command shown is the clone, and the scaffold follows it.
      const first = /```bash\n([^\n]*)\n([^\n]*)\n/.exec(section);
      expect(first?.[1], `${file}: the first command`).toBe(
        `git clone ${REPOSITORY_URL} && cd mcp-fw`,
      );
      expect(first?.[2], `${file}: the second`).toMatch(
        /^npm ci && npx tsc -b && npm create mcp-server -- \.\.\/my-server /,
      );
      expect(section.slice(0, first!.index), file).toMatch(/first release/);
      expect(text, file).not.toContain('<this repository>');
    }
  });

  it("runs the README's quick start, then the site's, in order on a fresh clone: the project tests, calls and serves", async () => {
    const [readme, ...moreInReadme] = walkedBlocks('README.md');
    expect(moreInReadme).toEqual([]);
    const [scaffold, use, ...moreInSite] = walkedBlocks('docs/quick-start.md');
    expect(moreInSite).toEqual([]);
    // The site's step 1 is the README's clone and scaffold, word for word: walked once.
    expect(scaffold).toEqual(readme.slice(0, 2));
    expect(readme[0]).toBe(`git clone ${REPOSITORY_URL} && cd mcp-fw`);

    let cwd = work.dir;
    for (const line of [...readme, ...use]) {
      if (SERVES.test(line)) {
        const result = await serveLine(line, cwd);
        expect(result.serverInfo.name, line).toBe('my-server');
        log.push(`$ ${line}\n(answered initialize as my-server)`);
        continue;
      }
      cwd = await runLine(line.replace(REPOSITORY_URL, origin), cwd, join(work.dir, 'pwd'), log);
      if (line === 'npx mcp-fw call greet name=Ada') expect(log.at(-1)).toContain('Hello, Ada!');
      if (line === 'npx mcp-fw inspect') expect(log.at(-1)).toMatch(/Tools \(1\)\n\s+greet/);
    }
    expect(cwd).toBe(join(work.dir, 'my-server'));
  }, 1_800_000);
});
