/**
 * `payorder completion SHELL`: prints the completion script for a shell, generated from the
 * command tree itself.
 */
import { Argument, type Command } from 'commander';
import { withExamples } from '../cli/shared-options.js';
import type { Context } from '../context.js';

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type Shell = (typeof COMPLETION_SHELLS)[number];

export async function runCompletion(shell: Shell, program: Command, ctx: Context): Promise<void> {
  const { buildModel } = await import('../completion/model.js');
  const { completionScript } = await import('../completion/scripts.js');
  ctx.io.stdout.write(completionScript(shell, buildModel(program)));
}

export function registerCompletion(program: Command, ctx: Context): void {
  const command = program
    .command('completion')
    .summary('print a shell completion script')
    .description(
      'Print the completion script for bash, zsh, fish or PowerShell. The README says where each goes.',
    )
    .addArgument(new Argument('<shell>', 'the shell').choices(COMPLETION_SHELLS));
  withExamples(command, [
    ['bash, for this session', 'source <(payorder completion bash)'],
    ['zsh, installed (with ~/.zfunc in $fpath)', 'payorder completion zsh > ~/.zfunc/_payorder'],
    ['fish, installed', 'payorder completion fish > ~/.config/fish/completions/payorder.fish'],
  ]);
  command.action((shell: Shell) => runCompletion(shell, program, ctx));
}
