/**
 * Opens what `--input FILE` names: stdin for "-", a regular file as a stream, and a FIFO without
 * ever blocking the process. Opening a FIFO blocks until a writer comes, and a thread blocked in
 * open() keeps Node from exiting even on a second Ctrl-C; so a FIFO is opened non-blocking and
 * read by polling until its writer is done (or the signal stops it).
 */
import { closeSync, constants, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

export function openInput(path: string, stdin: NodeJS.ReadableStream, signal: AbortSignal): Readable {
  if (path === '-') return stdin as Readable;
  let fifo = false;
  try {
    fifo = statSync(path).isFIFO();
  } catch {
    // A missing or unreadable file is reported by the stream's own error, with its code.
  }
  return fifo ? Readable.from(fifoChunks(path, signal), { objectMode: false }) : createReadStream(path);
}

async function* fifoChunks(path: string, signal: AbortSignal): AsyncGenerator<Buffer> {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const buffer = Buffer.alloc(65_536);
  // Until a writer has appeared, an empty read means "no writer yet", not the end.
  let connected = false;
  try {
    while (!signal.aborted) {
      let read: number;
      try {
        read = readSync(fd, buffer);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        connected = true;
        await sleep(5);
        continue;
      }
      if (read > 0) {
        connected = true;
        yield Buffer.from(buffer.subarray(0, read));
      } else if (connected) return;
      else await sleep(50);
    }
  } finally {
    closeSync(fd);
  }
}
