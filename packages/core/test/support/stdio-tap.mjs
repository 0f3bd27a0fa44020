// Sits between an MCP client and a stdio server and records every line each way, verbatim, to
// the JSON-lines file named by MCP_TAP_FILE: {"dir":"c2s"|"s2c","line":"..."}. The client sees
// the server's stdout unchanged, so tests can check what the server really wrote.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const file = process.env.MCP_TAP_FILE;
const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });

function tee(dir, from, to) {
  let rest = '';
  from.on('data', (chunk) => {
    const text = rest + chunk.toString('utf8');
    const lines = text.split('\n');
    rest = lines.pop();
    // Recorded before forwarding, so a reader that saw the reply also finds it in the file.
    if (file && lines.length)
      appendFileSync(file, lines.map((line) => `${JSON.stringify({ dir, line })}\n`).join(''));
    to.write(chunk);
  });
  from.on('end', () => {
    if (file && rest) appendFileSync(file, `${JSON.stringify({ dir, line: rest })}\n`);
    if (to !== process.stdout) to.end();
  });
}

tee('c2s', process.stdin, child.stdin);
tee('s2c', child.stdout, process.stdout);
child.stdin.on('error', () => {});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
