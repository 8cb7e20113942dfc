/** `payorder config get KEY`: prints one setting. get.run.ts does the work. */
import type { Command } from 'commander';
import { conventions, examples } from '../../cli/options.js';
import type { Context } from '../../context.js';

export function registerConfigGet(config: Command, ctx: Context): void {
  const command = conventions(config.command('get').description('print one setting'));
  examples(command, [
    ['where stage v2 orders go', 'payorder config get stage.v2.checkout-url'],
    ['in a script', 'curl -s "$(payorder config get sandbox.v2.checkout-url)/_sandbox" | jq .orders'],
  ])
    .argument('<key>', 'the setting, e.g. stage.v2.auth-url')
    .action(async (key: string) => {
      const run = await import('./get.run.js');
      run.renderConfigGet(await run.runConfigGet(run.parseConfigGetOptions(key), ctx), ctx);
    });
}
