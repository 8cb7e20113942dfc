/**
 * `payorder man`: prints the manual page payorder(1), generated from the command tree. This file
 * declares the command; man.run.ts does the work.
 */
import type { Command } from 'commander';
import { examples } from '../cli/options.js';
import type { Context } from '../context.js';

export function registerMan(program: Command, ctx: Context): void {
  const command = program
    .command('man')
    .summary('print the manual page (roff)')
    .description(
      'Print the manual page payorder(1), generated from the command tree: every command, option and example. ' +
        'npm install -g installs the same page.',
    );
  examples(command, [
    ['read it', 'payorder man | man -l -'],
    ['install it for yourself', 'payorder man > ~/.local/share/man/man1/payorder.1'],
  ]);
  command.action(async () => {
    const run = await import('./man.run.js');
    run.renderMan(run.runMan(program), ctx);
  });
}
