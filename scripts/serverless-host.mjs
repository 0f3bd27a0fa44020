#!/usr/bin/env node
// A local serverless platform for a fetch-handler function module (the `export default` of a
// Vercel / Netlify / Lambda-style function file, e.g. serverlessHandler of @mcp-fw/redis): a
// router on loopback in front of a pool of instances, each a node process that imports the
// module fresh (its cold start) and serves it behind a node:http adapter, as the platforms' Node
// runtimes do. What makes it a serverless platform and not a cluster:
//
// - requests go to the instances round-robin, so consecutive requests of one session meet
//   different instances;
// - an instance is recycled after a number of requests drawn for it at random, `recycleAfter`
//   on average (from 1 to twice that; with `recycleChance`, also after any request at random):
//   a fresh cold instance is started, and once it listens the old one takes no new request and
//   is killed (SIGKILL, as a platform drops a frozen instance) when its responses in flight have
//   ended (or after `maxDurationMs`, a platform's maximum duration). So cold instances serve
//   mid-session, and a request waits for a cold start only if no instance is warm, as on a
//   platform (routing to none while all three start over at once, under load, made the suite's
//   short waits time out).
//
// Used by examples/conformance's start:serverless (the official conformance suite against the
// function) and by bench:runtimes (the function's cold start: `--instance` alone).
//
//   node scripts/serverless-host.mjs <function.js> [--port N] [--instances 3] [--recycle-after 10]
//   node scripts/serverless-host.mjs --instance <function.js> [--port N]   one instance, no router
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest, Agent } from 'node:http';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SELF = fileURLToPath(import.meta.url);

/**
 * Starts the router and its pool. Resolves once every instance of the first pool listens, with
 * the router's origin, live `stats` and `stop()`.
 *
 * @param {{ module: string, port?: number, instances?: number, recycleAfter?: number,
 *   recycleChance?: number, maxDurationMs?: number, env?: Record<string, string>,
 *   log?: (line: string) => void }} spec
 */
export async function startServerlessHost(spec) {
  const module = resolve(spec.module);
  const size = spec.instances ?? 3;
  const recycleAfter = spec.recycleAfter ?? 10;
  const recycleChance = spec.recycleChance ?? 0;
  const maxDurationMs = spec.maxDurationMs ?? 60_000;
  const log = spec.log ?? (() => {});
  const agent = new Agent({ keepAlive: true });
  const stats = {
    requests: 0,
    instancesStarted: 0,
    recycled: 0,
    /** Requests that were a fresh instance's first. */
    coldRequests: 0,
    /** mcp-session-id → the instances that served it. */
    sessions: new Map(),
  };
  /** @type {Instance[]} */
  const pool = [];
  const waiting = [];
  let next = 0;
  let stopped = false;

  /** @typedef {{ id: number, child: import('node:child_process').ChildProcess, port: number,
   *   ready: boolean, replaced: boolean, retired: boolean, served: number, budget: number,
   *   inFlight: number,
   *   deadline?: NodeJS.Timeout }} Instance */

  function startInstance() {
    const id = ++stats.instancesStarted;
    const child = spawn(process.execPath, [SELF, '--instance', module, '--port', '0'], {
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    /** @type {Instance} */
    // Drawn per instance, so that instances started together (round-robin keeps them in step)
    // are not all recycled at once, leaving none warm, as a platform's instances are not.
    const budget = 1 + Math.floor(Math.random() * (2 * recycleAfter - 1));
    const instance = {
      id,
      child,
      port: 0,
      ready: false,
      replaced: false,
      retired: false,
      served: 0,
      inFlight: 0,
      budget,
    };
    pool.push(instance);
    let out = '';
    const started = new Promise((done, fail) => {
      child.stdout.setEncoding('utf8').on('data', (chunk) => {
        out += chunk;
        const match = /^listening http:\/\/127\.0\.0\.1:(\d+)\/$/m.exec(out);
        if (match && !instance.ready) {
          instance.port = Number(match[1]);
          instance.ready = true;
          done(instance);
          // A request waiting for any instance takes this one.
          while (waiting.length > 0 && !instance.retired) waiting.shift()();
        }
      });
      child.stderr.setEncoding('utf8').on('data', (chunk) => {
        for (const line of chunk.split('\n')) if (line) log(`[instance ${id}] ${line}`);
      });
      child.once('exit', (code, signal) => {
        const at = pool.indexOf(instance);
        if (at >= 0) pool.splice(at, 1);
        clearTimeout(instance.deadline);
        if (!instance.ready)
          fail(new Error(`instance ${id} exited (${code ?? signal}) before listening`));
        else if (!instance.retired && !stopped) {
          // Died on its own: the platform replaces it.
          log(`[host] instance ${id} exited (${code ?? signal}); starting another`);
          startInstance().catch((error) => log(`[host] ${error.message}`));
        }
      });
    });
    return started;
  }

  /**
   * Starts the instance that replaces `instance`, which serves on until its replacement listens
   * (as a platform routes to a warm instance while another starts), then retires.
   */
  function replace(instance) {
    if (instance.replaced) return;
    instance.replaced = true;
    if (stopped) return;
    startInstance().then(
      () => retire(instance),
      (error) => {
        log(`[host] ${error.message}`);
        retire(instance);
      },
    );
  }

  function retire(instance) {
    if (instance.retired) return;
    instance.retired = true;
    stats.recycled++;
    if (instance.inFlight === 0) instance.child.kill('SIGKILL');
    else instance.deadline = setTimeout(() => instance.child.kill('SIGKILL'), maxDurationMs);
  }

  async function pick() {
    for (;;) {
      const live = pool.filter((i) => i.ready && !i.retired);
      if (live.length > 0) return live[next++ % live.length];
      await new Promise((wake) => waiting.push(wake));
    }
  }

  const router = createServer(async (req, res) => {
    stats.requests++;
    const instance = await pick();
    if (instance.served === 0) stats.coldRequests++;
    instance.served++;
    instance.inFlight++;
    const session = req.headers['mcp-session-id'];
    if (typeof session === 'string') {
      const seen = stats.sessions.get(session) ?? new Set();
      seen.add(instance.id);
      stats.sessions.set(session, seen);
    }
    if (instance.served >= instance.budget || Math.random() < recycleChance) replace(instance);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      instance.inFlight--;
      if (instance.retired && instance.inFlight === 0) instance.child.kill('SIGKILL');
    };
    const began = Date.now();
    const trace = (what) =>
      spec.trace &&
      log(
        `[host] ${req.method} ${req.headers['mcp-method'] ?? ''} → instance ${instance.id} (request ${instance.served}${instance.retired ? ', retired' : ''}): ${what} after ${Date.now() - began} ms`,
      );
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: instance.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (answer) => {
        trace(`${answer.statusCode}`);
        answer.once('close', () => trace('ended'));
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        res.flushHeaders();
        answer.pipe(res);
        answer.once('close', finish);
      },
    );
    upstream.once('error', (error) => {
      trace(`error ${error.message}`);
      finish();
      if (!res.headersSent) res.writeHead(502).end(`instance ${instance.id}: ${error.message}`);
      else res.destroy();
    });
    // The client went away: so does the request to the instance (ending a held stream there).
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
      finish();
    });
    req.pipe(upstream);
  });

  await Promise.all(Array.from({ length: size }, () => startInstance()));
  await new Promise((done) => router.listen(spec.port ?? 0, '127.0.0.1', done));
  const { port } = /** @type {import('node:net').AddressInfo} */ (router.address());

  return {
    origin: `http://127.0.0.1:${port}`,
    stats,
    /** One line: requests, instances, recycles, cold hits, sessions spread over instances. */
    summary() {
      const spread = [...stats.sessions.values()].filter((s) => s.size > 1).length;
      return (
        `${stats.requests} requests on ${stats.instancesStarted} instances ` +
        `(${stats.recycled} recycled, after ${recycleAfter} requests on average); ` +
        `${stats.coldRequests} requests were a cold instance's first; ` +
        `${spread} of ${stats.sessions.size} legacy sessions served by more than one instance`
      );
    },
    async stop() {
      stopped = true;
      router.closeAllConnections();
      await new Promise((done) => router.close(() => done()));
      agent.destroy();
      await Promise.all(
        [...pool].map(
          (i) =>
            new Promise((done) => {
              if (i.child.exitCode !== null || i.child.signalCode !== null) return done();
              i.child.once('exit', done);
              i.child.kill('SIGKILL');
            }),
        ),
      );
    },
  };
}

/**
 * One instance: imports the function module (its cold start), then serves each request as a web
 * Request to its default export (`{ fetch }` or a function), streaming the Response back, as the
 * platforms' Node runtimes do. Prints `listening http://127.0.0.1:<port>/` on stdout once it listens.
 */
async function serveInstance(module, port) {
  const exported = (await import(pathToFileURL(resolve(module)).href)).default;
  const handle =
    typeof exported === 'function'
      ? exported
      : typeof exported?.fetch === 'function'
        ? exported.fetch.bind(exported)
        : undefined;
  if (!handle) {
    process.stderr.write(
      `${module} has no default export to serve: export default a fetch handler (a function (request) => Response, or { fetch })\n`,
    );
    process.exit(2);
  }
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      if (!/^(connection|keep-alive|transfer-encoding)$/i.test(req.rawHeaders[i]))
        headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    const aborted = new AbortController();
    res.once('close', () => aborted.abort());
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && chunks.length > 0;
    let response;
    try {
      response = await handle(
        new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url}`, {
          method: req.method,
          headers,
          body: hasBody ? Buffer.concat(chunks) : undefined,
          signal: aborted.signal,
        }),
        { ip: req.socket.remoteAddress },
      );
    } catch (error) {
      // As a platform does with a function that throws: 500, logged.
      process.stderr.write(`the function threw: ${error?.stack ?? error}\n`);
      res.writeHead(500).end();
      return;
    }
    const kept = [...response.headers].filter(
      ([name]) => !/^(content-length|transfer-encoding|connection|keep-alive)$/i.test(name),
    );
    res.writeHead(response.status, kept.flat());
    res.flushHeaders();
    if (response.body) {
      try {
        for await (const chunk of response.body) res.write(chunk);
      } catch {
        // The client went away.
      }
    }
    res.end();
  });
  // The router keeps its connections to the instance open between requests; an instance that
  // closed an idle one as the router sent the next request on it would lose that request
  // ("socket hang up"). An instance lives only while the router routes to it anyway.
  http.keepAliveTimeout = 0;
  http.listen(port, '127.0.0.1', () => {
    process.stdout.write(`listening http://127.0.0.1:${http.address().port}/\n`);
  });
}

if (process.argv[1] && resolve(process.argv[1]) === SELF) {
  const argv = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = argv.indexOf(name);
    return at >= 0 ? Number(argv[at + 1]) : fallback;
  };
  const instanceAt = argv.indexOf('--instance');
  if (instanceAt >= 0) await serveInstance(argv[instanceAt + 1], option('--port', 0));
  else {
    const module = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
    if (!module) {
      process.stderr.write(
        'usage: serverless-host.mjs <function.js> [--port N] [--instances 3] [--recycle-after 10]\n',
      );
      process.exit(2);
    }
    const host = await startServerlessHost({
      module,
      port: option('--port', 3000),
      instances: option('--instances', 3),
      recycleAfter: option('--recycle-after', 10),
      trace: argv.includes('--trace'),
      log: (line) => process.stderr.write(`${line}\n`),
    });
    process.stderr.write(`serverless host listening on ${host.origin}/\n`);
    for (const signal of ['SIGTERM', 'SIGINT'])
      process.once(signal, () => {
        process.stderr.write(`serverless host: ${host.summary()}\n`);
        host.stop().then(() => process.exit(0));
      });
  }
}
