/** `payorder man`, the work: the manual page, generated from the command tree. */
import type { Command } from 'commander';
import { manPage } from '../completion/man.js';
import type { Context } from '../context.js';

export function runMan(program: Command): string {
  return manPage(program);
}

/** The page verbatim on stdout, for man -l or a file. */
export function renderMan(page: string, ctx: Context): void {
  ctx.io.stdout.write(page);
}
