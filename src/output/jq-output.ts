/**
 * --jq EXPR, as gh has it: the command's JSON output goes through a jq filter, and what the filter
 * gives is printed, strings raw. The filter runs in jq itself (jq 1.8, compiled to WebAssembly by
 * the jq-wasm package: the real language, nothing native), loaded only when --jq is given. The
 * filter is compiled before the command runs, so a filter that does not compile is refused before
 * anything is sent. jq's $ENV is its sandbox's, never payorder's environment (no secret reaches it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { getRawAsset, isSea } from 'node:sea';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Context } from '../context.js';
import { CliError, usageError } from '../errors.js';
import { escapeControl } from '../terminal/terminal-text.js';

/** jq's WebAssembly, copied beside migrate-check's grammars by .ci/build.mjs (an asset of the executable). */
const JQ_WASM = 'jq.wasm';

/** jq's exit code for a filter that does not compile. */
const JQ_COMPILE_ERROR = 3;

interface Pending {
  expr: string;
  chunks: Buffer[];
  stdout: NodeJS.WritableStream;
  stdoutIsTTY: boolean;
}

const pending = new WeakMap<Context, Pending>();

function wasmBytes(): Uint8Array {
  if (isSea()) return new Uint8Array(getRawAsset(JQ_WASM));
  const candidates = ['./grammars/', '../../dist/grammars/'].map((folder) =>
    fileURLToPath(new URL(`${folder}${JQ_WASM}`, import.meta.url)),
  );
  const found = candidates.find((file) => existsSync(file));
  if (!found)
    throw new CliError('io', `--jq: jq's ${JQ_WASM} is missing from dist/grammars/ (run npm run build)`);
  return readFileSync(found);
}

let jq: Promise<import('jq-wasm').Jq> | undefined;
const loadJq = () => {
  jq ??= import('jq-wasm').then(({ loadJq: load }) => load({ wasmBinary: wasmBytes() }));
  return jq;
};

/** jq's own message, on one line: its first error, without the source line and caret it draws. */
const jqMessage = (stderr: string) =>
  (stderr.split('\n').find((line) => line.startsWith('jq: error')) ?? stderr.trim().split('\n')[0] ?? '')
    .replace(/^jq: error:?\s*/, '')
    .replace(/:$/, '');

/**
 * Before the command runs: compiles `expr` (exit 2 when it does not compile, nothing sent) and takes
 * stdout over, so that the command's JSON is filtered by finishJq() once it is done.
 */
export async function startJq(ctx: Context, expr: string): Promise<void> {
  const checked = (await loadJq()).raw(null, expr, ['-n']);
  if (checked.exitCode === JQ_COMPILE_ERROR)
    throw usageError(`--jq: ${jqMessage(checked.stderr) || 'the filter does not compile'}`, {
      field: '--jq',
    });
  const state: Pending = { expr, chunks: [], stdout: ctx.io.stdout, stdoutIsTTY: ctx.io.stdoutIsTTY };
  pending.set(ctx, state);
  ctx.io.stdout = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      state.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
  // The command prints for a program: JSON, never a table.
  ctx.io.stdoutIsTTY = false;
}

/**
 * Once the command is done (whether it succeeded or not): the JSON it printed, filtered, on the
 * real stdout. A filter that fails on it is exit 2, unless the command had failed itself.
 */
export async function finishJq(ctx: Context, commandFailed: boolean): Promise<void> {
  const state = pending.get(ctx);
  if (!state) return;
  pending.delete(ctx);
  ctx.io.stdout = state.stdout;
  ctx.io.stdoutIsTTY = state.stdoutIsTTY;
  const input = Buffer.concat(state.chunks).toString('utf8');
  if (input.trim() === '') return;
  const result = (await loadJq()).raw(input, state.expr, ['-r']);
  if (result.stdout !== '') {
    const text = state.stdoutIsTTY ? escapeControl(result.stdout, { keepNewlines: true }) : result.stdout;
    ctx.io.stdout.write(`${text}\n`);
  }
  if (result.exitCode !== 0 && !commandFailed)
    throw usageError(`--jq: ${jqMessage(result.stderr) || `jq exited ${result.exitCode}`}`, {
      field: '--jq',
    });
}
