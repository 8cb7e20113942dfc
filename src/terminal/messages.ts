/**
 * Messages for people, on stderr: notes, warnings and errors. Data never goes through here.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import type { Context } from '../context.js';
import { escapeControl } from './terminal-text.js';

/** A chalk that colors only where the context says a person is looking. */
export function painter(on: boolean): ChalkInstance {
  return new Chalk({ level: on ? 1 : 0 });
}

/** A progress or confirmation note; silenced by --quiet. */
export function note(ctx: Context, text: string): void {
  if (ctx.flags.quiet) return;
  ctx.io.stderr.write(`${escapeControl(text, { keepNewlines: true })}\n`);
}

/** A warning; silenced by --quiet. */
export function warn(ctx: Context, text: string): void {
  if (!ctx.flags.quiet) warnEvenQuiet(ctx, text);
}

/** A warning --quiet does not silence: a risk the user chose, told each time it is taken. */
export function warnEvenQuiet(ctx: Context, text: string): void {
  ctx.io.stderr.write(`${painter(ctx.io.colorErr).yellow('warning:')} ${escapeControl(text)}\n`);
}

/** An error: one line, and its hint on a second; what a server said cannot break out of them. */
export function errorLine(ctx: Context, text: string, hint?: string): void {
  const paint = painter(ctx.io.colorErr);
  ctx.io.stderr.write(`${paint.red('error:')} ${escapeControl(text)}\n`);
  if (hint) ctx.io.stderr.write(`${paint.dim(`hint: ${escapeControl(hint)}`)}\n`);
}
