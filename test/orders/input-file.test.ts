import { execFileSync } from 'node:child_process';
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openInput } from '../../src/orders/input-file.js';
import { tempDir } from '../helpers/cli.js';

const read = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
};

describe('openInput', () => {
  it('"-" is stdin, a file is read whole', async () => {
    const stdin = Readable.from([Buffer.from('from stdin\n')]);
    expect(openInput('-', stdin, new AbortController().signal)).toBe(stdin);
    const file = join(tempDir('input-'), 'ids.txt');
    writeFileSync(file, 'a\nb\n');
    expect(await read(openInput(file, stdin, new AbortController().signal))).toBe('a\nb\n');
  });

  it("a FIFO waits for its writer without blocking, then reads to the writer's end", async () => {
    const fifo = join(tempDir('input-'), 'ids.fifo');
    execFileSync('mkfifo', [fifo]);
    const text = read(openInput(fifo, process.stdin, new AbortController().signal));
    // The process is not blocked while no writer is there: this timer still runs.
    await new Promise((resolve) => setTimeout(resolve, 80));
    const writer = openSync(fifo, 'w');
    writeSync(writer, 'first\n');
    writeSync(writer, 'second\n');
    closeSync(writer);
    expect(await text).toBe('first\nsecond\n');
  });

  it('a FIFO that never gets a writer ends when the signal aborts', async () => {
    const fifo = join(tempDir('input-'), 'never.fifo');
    execFileSync('mkfifo', [fifo]);
    const controller = new AbortController();
    const text = read(openInput(fifo, process.stdin, controller.signal));
    setTimeout(() => controller.abort(), 50);
    expect(await text).toBe('');
  });
});
