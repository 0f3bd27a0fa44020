import {
  cpSync,
  existsSync,
  mkdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  LEGACY_REVISIONS,
  type Channel,
  type EraMode,
  type Servable,
  type ToolLookup,
} from '@mcp-fw/core/transport';
import { changedLists, EMPTY_LISTS } from '../client/lists.js';
import { CliError } from '../output/cli-error.js';
import {
  bundleViews,
  changedViews,
  findViews,
  type ViewSource,
  viewFiles,
} from '../views/bundle-views.js';
import type { ListedResource } from '../client/wire.js';
import type { RunCompiler } from '../project/compile.js';
import { widenCapabilities } from './capabilities.js';
import { ChildLink } from './child-link.js';
import { importGraph } from './import-graph.js';
import { probe, type Probe } from './probe.js';
import { RelaySession } from './relay-session.js';
import type { DevSchemas } from './schemas.js';
import { SkillsWatcher } from './skills-watcher.js';
import { SourceWatcher } from './watcher.js';

/** Options of {@link Supervisor}. */
export interface SupervisorOptions {
  /** The entry module as the user named it, resolved (TypeScript or JavaScript). */
  readonly entry: string;
  /** Compiles TypeScript entries; absent for JavaScript ones. */
  readonly compiler?: RunCompiler;
  /** Regenerates the schemas module from the TypeScript types before each compile. */
  readonly schemas?: DevSchemas;
  /** Where compiled generations go (one subdirectory each); removed on close. */
  readonly cacheDir: string;
  readonly debounceMs: number;
  /** How long a replaced child may take to finish its calls in flight. */
  readonly graceMs: number;
  /** One line for the developer (stderr). */
  readonly report: (kind: 'info' | 'error', line: string) => void;
  /** Called after every reload attempt, for tests and the benchmark. */
  readonly onReload?: (outcome: ReloadOutcome) => void;
  /** MCP Apps views (`views/<name>/`): rebuilt into `outDir/views/` when one of their files changes. */
  readonly views?: { readonly projectDir: string; readonly outDir: string };
  /**
   * The project's skills folder (`skills/`), which `loadSkills` reads at startup: watched as a
   * whole, any change reloads, and a change of `skills/list` is announced as a resources change.
   */
  readonly skillsDir?: string;
}

/** What one reload did. */
export type ReloadOutcome =
  | { readonly ok: true; readonly ms: number; readonly changed: readonly string[] }
  | { readonly ok: false; readonly ms: number; readonly error: string };

const DIAGNOSTIC_FILE = /^(.+?)\(\d+,\d+\): error/gm;

/**
 * The dev runner: keeps one child running the user's server, replaces it when the entry's
 * import graph changes, and keeps every client session ({@link RelaySession}) across the swap.
 * A failed reload leaves the sessions connected and answering with the failure until a good
 * save; a replaced child finishes its calls in flight before it exits. It is what core's stdio
 * and HTTP transports serve (a {@link Servable}), so `mcp-fw dev` frames, sessions and checks
 * are production's own.
 */
export class Supervisor implements Servable<RelaySession> {
  readonly #options: SupervisorOptions;
  readonly #sessions = new Set<RelaySession>();
  readonly #watcher: SourceWatcher;
  readonly #skillsWatcher?: SkillsWatcher;
  readonly #links = new Set<ChildLink>();
  #current?: ChildLink;
  #spare?: ChildLink;
  readonly #outDirs = new Map<ChildLink, string>();
  #down?: string;
  #probe?: Probe;
  #generation = 0;
  #connection = 1;
  #reloading?: Promise<void>;
  #again?: string[];
  #closed = false;
  #wasDown = false;
  /** The compiled entry, relative to its generation's directory. */
  #compiledEntry?: string;

  constructor(options: SupervisorOptions) {
    this.#options = options;
    this.#watcher = new SourceWatcher((files) => this.reload(files), options.debounceMs);
    const initial = [options.entry];
    if (options.compiler) initial.push(options.compiler.project.tsconfig);
    if (options.views) initial.push(...viewFiles(options.views.projectDir));
    this.#watcher.add(initial);
    if (options.skillsDir)
      this.#skillsWatcher = new SkillsWatcher(
        options.skillsDir,
        (files) => this.reload(files),
        options.debounceMs,
      );
  }

  /** The files watched now (the import graph seen so far, plus tsconfig.json). */
  get watched(): string[] {
    return this.#watcher.files;
  }

  /** Starts the first child; resolves once it serves (or failed, and the sessions know why). */
  start(): Promise<void> {
    return this.reload([]);
  }

  /** Serves one more client session (called by the stdio and HTTP transports). */
  connect(channel: Channel, mode?: EraMode): RelaySession {
    const session = new RelaySession(channel, mode, {
      nextConnection: () => this.#connection++,
      initializeFallback: (params) => this.#initializeFallback(params),
      closed: (s) => this.#sessions.delete(s),
    });
    this.#sessions.add(session);
    if (this.#current) void session.switchTo(this.#current);
    else if (this.#down !== undefined) session.fail(this.#down);
    return session;
  }

  /**
   * The tools as the current child lists them, for core's HTTP checks of 2026-07-28 requests
   * (`x-mcp-header` mirrors), which run here before a request reaches any child.
   */
  readonly registry: ToolLookup = {
    tool: (name) =>
      this.#probe?.lists.tools.find((t) => t.name === name) as
        | { inputSchema: Record<string, unknown> }
        | undefined,
  };

  /** Reloads after `changed` files changed; changes during a reload trigger one more after it. */
  reload(changed: string[]): Promise<void> {
    if (this.#reloading) {
      this.#again = [...(this.#again ?? []), ...changed];
      return this.#reloading;
    }
    this.#reloading = this.#load(changed).finally(() => {
      this.#reloading = undefined;
      const again = this.#again;
      this.#again = undefined;
      if (again && !this.#closed) void this.reload(again);
    });
    return this.#reloading;
  }

  /** Stops watching and ends every child (sessions are closed by their transports). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#watcher.close();
    this.#skillsWatcher?.close();
    const exits = [...this.#links].map((link) => link.exited);
    this.killAll();
    await Promise.all(exits);
    rmSync(this.#options.cacheDir, { recursive: true, force: true });
  }

  /** Ends every child at once (the process is exiting). */
  killAll(): void {
    for (const link of this.#links) link.kill();
  }

  async #load(changed: string[]): Promise<void> {
    const started = performance.now();
    const generation = ++this.#generation;
    const outDir = join(this.#options.cacheDir, String(generation));
    const previous = this.#current;
    // What clients were last told, read from the old child while the new one builds.
    const before = previous
      ? probe(previous, this.#connection++).catch(() => this.#probe)
      : Promise.resolve(this.#probe);
    const shown = relative(process.cwd(), this.#options.entry);
    let entry = this.#options.entry;
    const compiler = this.#options.compiler;
    const schemas = this.#options.schemas;
    // Only skills changed: the code is what the running child compiled, so its build is copied
    // instead of compiled again (a skills edit reloads in the time a child takes to start).
    const skillsDir = this.#options.skillsDir;
    const built = previous && this.#outDirs.get(previous);
    const reuse =
      compiler && built && this.#compiledEntry && skillsDir && changed.length > 0
        ? changed.every((file) => file.startsWith(`${skillsDir}/`))
        : false;
    if (schemas && !reuse) {
      // Before compiling, so the child imports the schemas of the signatures just saved.
      const result = await schemas.regenerate();
      trace('schemas', started);
      this.#watcher.add(schemas.files());
      if (!result.ok) return this.#fail(result.error, started);
      if (result.written && schemas.target) this.#watcher.remember(schemas.target);
    }
    const views = this.#options.views;
    // The first load builds every view, later ones those whose files changed.
    const touched = !views
      ? []
      : generation === 1
        ? findViews(views.projectDir)
        : changedViews(views.projectDir, changed);
    if (views && touched.length > 0) {
      try {
        await bundleViews(views.projectDir, views.outDir, touched);
      } catch (error) {
        const fix = error instanceof CliError ? `\n${error.fix}` : '';
        return this.#fail(`${(error as Error).message}${fix}`, started);
      }
      trace('views', started);
    }
    if (reuse && built && this.#compiledEntry) {
      cpSync(built, outDir, { recursive: true });
      entry = realpathSync(join(outDir, this.#compiledEntry));
    } else if (compiler) {
      if (changed.includes(compiler.project.tsconfig))
        await compiler.refresh().catch(() => undefined);
      const result = await compiler.compile(outDir);
      trace('compiled', started);
      if (!result.ok) {
        this.#watchDiagnostics(result.error, compiler.project.dir);
        return this.#fail(
          `${shown} does not compile: ${result.error}${result.fix ? `\n${result.fix}` : ''}`,
          started,
          outDir,
        );
      }
      if (result.warnings) this.#options.report('info', result.warnings);
      entry = realpathSync(result.entry);
      // The bundled views beside the compiled code too, as `mcp-fw build` leaves them in dist/:
      // `viewsIn(new URL('./views/', import.meta.url))` then finds them in dev as in production.
      const bundled = views && join(views.outDir, 'views');
      if (bundled && existsSync(bundled))
        cpSync(bundled, join(outDir, 'views'), { recursive: true });
      this.#compiledEntry = relative(realpathSync(outDir), entry);
      if (this.#options.skillsDir)
        this.#linkBeside(
          this.#options.skillsDir,
          compiler.besideOutput(this.#options.skillsDir, outDir),
        );
    }
    const graph = importGraph(entry, compiler ? realpathSync(outDir) : dirname(entry));
    this.#watchGraph(graph.files, compiler ? realpathSync(outDir) : undefined);
    const link = this.#spare ?? this.#spawn();
    this.#spare = undefined;
    this.#outDirs.set(link, outDir);
    let probed: Probe;
    try {
      await link.load(entry, shown, compiler?.project.dir ?? dirname(this.#options.entry));
      trace('loaded', started);
      probed = await probe(link, this.#connection++);
    } catch (error) {
      link.kill();
      this.#fail((error as Error).message, started);
      return this.#prepareSpare(graph.packages);
    }
    const sessions = [...this.#sessions];
    this.#current = link;
    this.#down = undefined;
    await Promise.all(sessions.map((session) => session.switchTo(link)));
    // Nothing to announce at the first start, unless sessions were served (empty) while down.
    const baseline = (await before)?.lists ?? (this.#wasDown ? EMPTY_LISTS : probed.lists);
    const lists = changedLists(baseline, probed.lists);
    // Skills are resources (SEP-2640 defines no notification of its own): a changed skills/list
    // (a new skill, an edited SKILL.md, any file's digest) is a resources change.
    const skillsBefore = (await before)?.skills ?? probed.skills;
    if (
      JSON.stringify(skillsBefore) !== JSON.stringify(probed.skills) &&
      !lists.includes('resources')
    )
      lists.push('resources');
    // A rebuilt view is a changed resource: clients re-read the list, hosts the view.
    if (generation > 1 && touched.length > 0 && !lists.includes('resources'))
      lists.push('resources');
    this.#probe = probed;
    const rebuilt = generation > 1 ? viewUris(probed.lists.resources, touched) : [];
    for (const session of this.#sessions) {
      session.listsChanged(lists);
      if (rebuilt.length > 0) session.resourcesUpdated(rebuilt);
    }
    if (previous) void previous.retire(this.#options.graceMs);
    const ms = Math.round(performance.now() - started);
    const what = changed.length ? changed.map((f) => relative(process.cwd(), f)).join(', ') : shown;
    const effect = lists.length ? `${lists.join(', ')} changed` : 'no list changed';
    this.#options.report(
      'info',
      `${generation === 1 ? 'started' : 'reloaded'} ${what} in ${ms} ms (${effect})`,
    );
    this.#options.onReload?.({ ok: true, ms, changed: lists });
    this.#prepareSpare(graph.packages);
  }

  /**
   * Makes `folder` reachable from a generation's compiled code as from the project's build
   * (`at`, computed by the compiler): a link inside our cache directory, made once.
   */
  #linkBeside(folder: string, at: string): void {
    const inCache = relative(this.#options.cacheDir, at);
    if (inCache.startsWith('..') || existsSync(at)) return;
    mkdirSync(dirname(at), { recursive: true });
    symlinkSync(folder, at, 'dir');
  }

  /** Starts the child the next reload will use, with the packages the code imports preloaded. */
  #prepareSpare(packages: readonly string[]): void {
    if (this.#closed) return;
    const preload = join(this.#options.cacheDir, 'preload.mjs');
    mkdirSync(this.#options.cacheDir, { recursive: true });
    writeFileSync(preload, packages.map((p) => `import ${JSON.stringify(p)};\n`).join(''));
    this.#spare = this.#spawn(preload);
  }

  #spawn(preload?: string): ChildLink {
    const link = new ChildLink(preload);
    this.#links.add(link);
    void link.exited.then(() => this.#exited(link));
    return link;
  }

  #fail(error: string, started: number, outDir?: string): void {
    if (outDir) rmSync(outDir, { recursive: true, force: true });
    const message = `${error} — fix it and save; mcp-fw dev reloads and the session stays connected`;
    const previous = this.#current;
    this.#current = undefined;
    this.#down = message;
    this.#wasDown = true;
    for (const session of this.#sessions) session.fail(message);
    if (previous) void previous.retire(this.#options.graceMs);
    this.#options.report('error', error);
    this.#options.onReload?.({ ok: false, ms: Math.round(performance.now() - started), error });
  }

  #exited(link: ChildLink): void {
    this.#links.delete(link);
    if (this.#spare === link) this.#spare = undefined;
    if (this.#current === link && !this.#closed) {
      this.#current = undefined;
      this.#fail(link.exitReason, performance.now());
    }
    const outDir = this.#outDirs.get(link);
    this.#outDirs.delete(link);
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  }

  /** Watches the sources of the graph's files (`outDir`: where compiled files were written). */
  #watchGraph(files: readonly string[], outDir: string | undefined): void {
    const compiler = this.#options.compiler;
    const sources = compiler && outDir ? files.map((f) => compiler.sourceOf(f, outDir)) : files;
    this.#watcher.add(
      sources.filter((f): f is string => f !== undefined && !f.includes('/node_modules/')),
    );
  }

  /** Files named in compile errors are watched too, so fixing any of them triggers a reload. */
  #watchDiagnostics(output: string, dir: string): void {
    this.#watcher.add([...output.matchAll(DIAGNOSTIC_FILE)].map((m) => resolve(dir, m[1])));
  }

  #initializeFallback(params: Record<string, unknown> | undefined): Record<string, unknown> {
    const requested = params?.protocolVersion;
    const protocolVersion = (LEGACY_REVISIONS as readonly unknown[]).includes(requested)
      ? requested
      : LEGACY_REVISIONS[0];
    const known = this.#probe?.initializeResult;
    const base = known ?? {
      capabilities: {},
      serverInfo: { name: 'mcp-fw-dev', version: '0.0.0' },
    };
    return widenCapabilities({ ...base, protocolVersion });
  }
}

const TRACE = process.env.MCP_FW_DEV_TRACE === '1';

function trace(step: string, started: number): void {
  if (TRACE)
    process.stderr.write(`[mcp-fw dev] ${step} at ${Math.round(performance.now() - started)} ms\n`);
}

/**
 * The `ui://` URIs of the rebuilt views, as the reloaded server lists them: a folder view is
 * named after its folder (`viewsIn`), whatever URI it was given.
 */
function viewUris(resources: readonly ListedResource[], views: readonly ViewSource[]): string[] {
  return resources
    .filter(
      (r) =>
        r.mimeType?.startsWith('text/html;profile=mcp-app') &&
        views.some((v) => r.name === v.name || r.uri === `ui://views/${v.name}`),
    )
    .map((r) => r.uri);
}
