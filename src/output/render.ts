/**
 * The one place that decides how a command's result is shown, and shows it: the format rule
 * (-o/--json, else a table for a person and JSON for a pipe, or the stored default-output), a
 * result as JSON or as text for people, and errors on stderr (one line and a hint, or JSON with
 * --json). Commands return data; this module prints it.
 */
import type { ChalkInstance } from 'chalk';
import type { Context } from '../context.js';
import { type CliError, usageError } from '../errors.js';
import { errorLine, painter } from '../terminal/messages.js';
import type { OutputFormat } from './formats.js';

export interface FormatRule {
  /** What -o/--json asked for. */
  asked?: OutputFormat;
  /** The stored default-output (only commands that show orders honour it). */
  stored?: OutputFormat;
  /** The format when stdout is not a terminal and nothing was asked: JSON unless a command streams. */
  whenPiped?: OutputFormat;
}

export function chooseFormat(ctx: Context, { asked, stored, whenPiped = 'json' }: FormatRule): OutputFormat {
  if (asked) return asked;
  if (!ctx.io.stdoutIsTTY) return stored && stored !== 'table' ? stored : whenPiped;
  return stored ?? 'table';
}

export interface Result<T> {
  /** The value as it is printed in JSON: the command's documented shape. */
  json: T;
  /** The same for a person: text lines, colored by `paint` where a person is looking. */
  human(paint: ChalkInstance): string;
  /** Where the text for people goes: stdout when it is the data (default), stderr when it is a message. */
  humanTo?: 'stdout' | 'stderr';
}

/** Prints a command's result in `format`: table is the text for people; json and ndjson the value. */
export function render<T>(ctx: Context, format: OutputFormat, result: Result<T>): void {
  switch (format) {
    case 'json':
      ctx.io.stdout.write(`${JSON.stringify(result.json, null, 2)}\n`);
      return;
    case 'ndjson':
      ctx.io.stdout.write(`${JSON.stringify(result.json)}\n`);
      return;
    case 'tsv':
      throw usageError('-o tsv shows orders; choose json, ndjson or table here', { field: '--output' });
    default: {
      const toStderr = result.humanTo === 'stderr';
      if (toStderr && ctx.flags.quiet) return;
      const text = result.human(painter(toStderr ? ctx.io.colorErr : ctx.io.colorOut));
      if (text !== '') (toStderr ? ctx.io.stderr : ctx.io.stdout).write(`${text}\n`);
    }
  }
}

/** Shows an error on stderr: JSON with --json, else one line and its hint. */
export function renderError(ctx: Context, error: CliError): void {
  if (ctx.flags.json) ctx.io.stderr.write(`${JSON.stringify(error.toJSON())}\n`);
  else errorLine(ctx, error.message, error.details.hint);
}
