/**
 * `payorder __complete LIST`: prints, one a line, the words a completion script offers that only
 * this machine knows (`profiles`: the profile names in the store, `default` first). It is for the
 * scripts, not for people: hidden, so help, the man page and the completions leave it out. This file
 * declares the command; complete.run.ts does the work.
 */
import type { Command } from 'commander';
import { COMPLETE_COMMAND, DYNAMIC_LISTS } from '../completion/dynamic-lists.js';
import type { Context } from '../context.js';

export function registerComplete(program: Command, ctx: Context): void {
  program
    .command(COMPLETE_COMMAND, { hidden: true })
    .description(
      `Print the words the completion scripts offer for a list (${DYNAMIC_LISTS.join(', ')}), one a line.`,
    )
    .argument('[list]', `what to list: ${DYNAMIC_LISTS.join(', ')}`)
    // Nothing is refused: a script of another payorder version may ask for a list, or pass words,
    // that this one does not know. The answer is then empty, and the shell goes on.
    .allowExcessArguments()
    .allowUnknownOption()
    .action(async (list: string | undefined) => {
      const run = await import('./complete.run.js');
      run.renderComplete(await run.runComplete(list, ctx), ctx);
    });
}
