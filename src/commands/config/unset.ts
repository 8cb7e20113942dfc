/** `payorder config unset KEY`: removes one setting. unset.run.ts does the work. */
import type { Command } from 'commander';
import { conventions, examples } from '../../cli/options.js';
import type { Context } from '../../context.js';

export function registerConfigUnset(config: Command, ctx: Context): void {
  const command = conventions(config.command('unset').description('remove one setting'));
  examples(command, [
    ['back to the built-in default', 'payorder config unset default-output'],
    [
      'forget every stage address',
      'payorder config list --json | jq -r "keys[]" | grep "^stage\\." | xargs -n1 payorder config unset',
    ],
  ])
    .argument('<key>', 'the setting')
    .action(async (key: string) => {
      const run = await import('./unset.run.js');
      run.renderConfigUnset(await run.runConfigUnset(run.parseConfigUnsetOptions(key), ctx), ctx);
    });
}
