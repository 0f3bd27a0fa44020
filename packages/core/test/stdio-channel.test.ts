import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StdioChannel } from '../src/transports/stdio.ts';

/** Feeds `chunks` to a channel with a `limit`-byte line limit; what its sink heard, in order. */
async function linesOf(chunks: (string | Buffer)[], limit = 16): Promise<string[]> {
  const input = new PassThrough();
  const heard: string[] = [];
  const channel = new StdioChannel({
    input,
    output: { write: () => true, once: () => undefined },
    maxMessageBytes: limit,
  });
  const ended = new Promise<void>((resolve) => {
    channel.start({
      frame: (text) => heard.push(`frame ${text}`),
      oversize: (bytes, max) => heard.push(`oversize ${bytes}/${max}`),
      ended: resolve,
      abandoned: () => {},
    });
  });
  for (const chunk of chunks) {
    input.write(chunk);
    // One read per chunk, as a pipe delivers them.
    await new Promise((resolve) => setImmediate(resolve));
  }
  input.end();
  await ended;
  return heard;
}

describe('StdioChannel: lines out of chunks', () => {
  it('splits several lines in one chunk, skipping blank ones and a CR before the newline', async () => {
    expect(await linesOf(['a\nbb\r\n\n  \nccc\n'])).toEqual(['frame a', 'frame bb', 'frame ccc']);
  });

  it('joins a line split across chunks, also after whole lines in the same chunk', async () => {
    expect(await linesOf(['one\ntw', 'o\nthr', 'e', 'e\nfour\n'])).toEqual([
      'frame one',
      'frame two',
      'frame three',
      'frame four',
    ]);
  });

  it('decodes UTF-8 in a chunk that is not all ASCII, whole lines and split ones alike', async () => {
    expect(await linesOf(['plain\ncafé ☕ 𝄞\nx', 'ü\n'], 64)).toEqual([
      'frame plain',
      'frame café ☕ 𝄞',
      'frame xü',
    ]);
  });

  it('decodes a character whose UTF-8 bytes are split across chunks', async () => {
    const bytes = Buffer.from('café\n');
    expect(await linesOf([bytes.subarray(0, 4), bytes.subarray(4)])).toEqual(['frame café']);
  });

  it('takes a line of exactly the limit and refuses one byte more, whole or split, then goes on', async () => {
    const at = 'x'.repeat(16);
    expect(await linesOf([`${at}\n${at}y\nok\n`])).toEqual([
      `frame ${at}`,
      'oversize 17/16',
      'frame ok',
    ]);
    expect(await linesOf([`${at}`, 'y\nok\n'])).toEqual(['oversize 17/16', 'frame ok']);
    expect(await linesOf(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(10), '\nok\n'])).toEqual([
      'oversize 30/16',
      'frame ok',
    ]);
  });

  it('hands over a last line without a newline when the input ends', async () => {
    expect(await linesOf(['a\nlast'])).toEqual(['frame a', 'frame last']);
  });
});

describe('StdioChannel: writes', () => {
  function writer() {
    const chunks: string[] = [];
    const channel = new StdioChannel({
      input: new PassThrough(),
      output: { write: (chunk) => chunks.push(chunk) > 0, once: () => undefined },
      maxMessageBytes: 1024,
    });
    return { channel, chunks };
  }

  it('a write with the pipe idle goes out in the same turn, before the event loop moves on', async () => {
    const { channel, chunks } = writer();
    channel.send('{"a":1}');
    expect(chunks).toEqual([]);
    // A tick queued after the send runs after its flush; a setImmediate flush came much later.
    await new Promise((resolve) => process.nextTick(resolve));
    expect(chunks).toEqual(['{"a":1}\n']);
  });

  it('frames sent in one turn, promise continuations included, leave as one chunk', async () => {
    const { channel, chunks } = writer();
    channel.send('1');
    void Promise.resolve()
      .then(() => channel.send('2'))
      .then(() => channel.send('3'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(chunks).toEqual(['1\n2\n3\n']);
  });
});
