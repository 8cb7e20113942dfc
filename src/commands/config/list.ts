/** `payorder config list`: lists settings. list.run.ts does the work. */
import type { Command } from 'commander';
import { conventions, examples, jsonOption } from '../../cli/options.js';
import type { Context } from '../../context.js';
import type { ConfigListFlags } from './list.run.js';

export function registerConfigList(config: Command, ctx: Context): void {
  const command = conventions(config.command('list').description('list settings'));
  examples(command, [
    ['what is set', 'payorder config list'],
    ['every key, with what it does', 'payorder config list --all | grep url'],
  ]).option('--all', 'include settings that are not set, with what each does');
  jsonOption(command).action(async (flags: ConfigListFlags) => {
    const run = await import('./list.run.js');
    const options = run.parseConfigListOptions(flags);
    run.renderConfigList(await run.runConfigList(options, ctx), options, ctx);
  });
}
