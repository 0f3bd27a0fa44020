// The floor: a hand-written newline-JSON responder with no framework, no validation beyond
// what the work needs, and one write per input chunk. Any Node MCP server pays at least this.
import { answer, type Message } from './bare-answer.js';

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  const lines = (pending + chunk).split('\n');
  pending = lines.pop()!;
  let out = '';
  for (const line of lines) {
    if (line.length === 0) continue;
    const reply = answer(JSON.parse(line) as Message);
    if (reply !== undefined) out += `${reply}\n`;
  }
  if (out) process.stdout.write(out);
});
process.stdin.on('end', () => process.exit(0));
