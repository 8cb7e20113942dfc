/**
 * `payorder completion SHELL`, the work: the script for a shell, generated from the command tree.
 */
import type { Command } from 'commander';
import { buildModel } from '../completion/model.js';
import { completionScript } from '../completion/scripts.js';
import type { Shell } from '../completion/shells.js';
import type { Context } from '../context.js';

export function runCompletion(shell: Shell, program: Command): string {
  return completionScript(shell, buildModel(program));
}

/** The script verbatim on stdout, to be sourced or saved. */
export function renderCompletion(script: string, ctx: Context): void {
  ctx.io.stdout.write(script);
}
