/**
 * `payorder completion SHELL`: prints the completion script for a shell, generated from the
 * command tree itself. This file declares the command; completion.run.ts does the work.
 */
import { Argument, type Command } from 'commander';
import { examples } from '../cli/options.js';
import { COMPLETION_SHELLS, type Shell } from '../completion/shells.js';
import type { Context } from '../context.js';

export function registerCompletion(program: Command, ctx: Context): void {
  const command = program
    .command('completion')
    .summary('print a shell completion script')
    .description(
      'Print the completion script for bash, zsh, fish or PowerShell. The README says where each goes.',
    )
    .addArgument(new Argument('<shell>', 'the shell').choices(COMPLETION_SHELLS));
  examples(command, [
    ['bash, for this session', 'source <(payorder completion bash)'],
    ['zsh, installed (with ~/.zfunc in $fpath)', 'payorder completion zsh > ~/.zfunc/_payorder'],
    ['fish, installed', 'payorder completion fish > ~/.config/fish/completions/payorder.fish'],
  ]);
  command.action(async (shell: Shell) => {
    const run = await import('./completion.run.js');
    run.renderCompletion(run.runCompletion(shell, program), ctx);
  });
}
