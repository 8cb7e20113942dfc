/**
 * The lines of an input file (`--input`), numbered, in constant memory: the bytes are split at
 * "\n" here, each line checked to be UTF-8 and no longer than MAX_LINE_BYTES. What is wrong with
 * the file as a whole (UTF-16, a line too long, a read error) is a usage error naming `--input`.
 */
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { CliError, usageError } from '../errors.js';

/**
 * The longest line read, in bytes, without its line ending; a CSV record over several lines has
 * the same limit. A longer line stops the read with a usage error: past it, nothing says where the
 * next line starts without reading on without bound (`--input /dev/zero` has no line end at all).
 */
export const MAX_LINE_BYTES = 64 * 1024;

/** One line of an input file, as `readLines` gives it. */
export interface TextLine {
  /** 1-based. */
  line: number;
  /** The line without its ending ("\n" or "\r\n"), nor the byte order mark of line 1. */
  text: string;
  /** False when its bytes are not UTF-8; `text` then has U+FFFD in their place. */
  valid: boolean;
}

/** A usage error about the file `--input` names. */
export const inputError = (message: string, hint?: string) =>
  usageError(`--input: ${message}`, { field: '--input', ...(hint ? { hint } : {}) });

export const isBlank = (text: string) => text.trim() === '';

/**
 * The lines of an input, numbered, in constant memory (`order get --input` reads its ids this way
 * too): a line longer than MAX_LINE_BYTES, a UTF-16 file or a read error is a usage error; a line
 * that is not UTF-8 is given with `valid: false` for the caller to refuse.
 */
export async function* readLines(stream: Readable, label: string): AsyncGenerator<TextLine> {
  let pending: Buffer[] = [];
  let size = 0;
  let line = 1;
  const tooLong = () => inputError(`line ${line} of ${label} is longer than ${MAX_LINE_BYTES} bytes`);
  const take = (end: Buffer): TextLine => {
    let bytes = pending.length > 0 ? Buffer.concat([...pending, end]) : end;
    pending = [];
    size = 0;
    if (line === 1) bytes = withoutByteOrderMark(bytes, label);
    if (bytes.at(-1) === 0x0d) bytes = bytes.subarray(0, -1);
    if (bytes.length > MAX_LINE_BYTES) throw tooLong();
    return { line: line++, text: bytes.toString('utf8'), valid: isUtf8(bytes) };
  };
  // Four bytes of slack for a byte order mark and a "\r", which take() removes before its exact check.
  const slack = 4;
  try {
    for await (const chunk of stream) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      let start = 0;
      for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, start)) {
        if (size + end - start > MAX_LINE_BYTES + slack) throw tooLong();
        const piece = bytes.subarray(start, end);
        start = end + 1;
        yield take(piece);
      }
      size += bytes.length - start;
      if (size > MAX_LINE_BYTES + slack) throw tooLong();
      if (start < bytes.length) pending.push(bytes.subarray(start));
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw inputError(`cannot read ${label} (${reason})`);
  }
  if (size > 0) yield take(Buffer.alloc(0));
}

function withoutByteOrderMark(bytes: Buffer, label: string): Buffer {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3);
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    throw inputError(`${label} is in UTF-16; save it as UTF-8`);
  return bytes;
}
