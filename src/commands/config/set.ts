/** `payorder config set KEY VALUE`: changes one setting. set.run.ts does the work. */
import type { Command } from 'commander';
import { conventions, examples, insecureHttpOption } from '../../cli/options.js';
import type { Context } from '../../context.js';

export function registerConfigSet(config: Command, ctx: Context): void {
  const command = conventions(insecureHttpOption(config.command('set').description('change one setting')));
  examples(command, [
    ['the stage v2 token address', 'payorder config set stage.v2.auth-url https://auth.stage.example.com'],
    ['JSON unless asked otherwise', 'payorder config set default-output json'],
    ['from a file of KEY VALUE lines', 'xargs -n2 payorder config set < payorder.settings'],
  ])
    .argument('<key>', 'the setting')
    .argument('<value>', 'its new value')
    .action(async (key: string, value: string) => {
      const run = await import('./set.run.js');
      run.renderConfigSet(await run.runConfigSet(run.parseConfigSetOptions(key, value), ctx), ctx);
    });
}
