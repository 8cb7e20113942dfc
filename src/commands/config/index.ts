/**
 * `payorder config`: the group of settings commands (get, set, unset, list): addresses per
 * environment and version, and the defaults.
 */
import type { Command } from 'commander';
import { examples } from '../../cli/options.js';
import type { Context } from '../../context.js';
import { registerConfigGet } from './get.js';
import { registerConfigList } from './list.js';
import { registerConfigSet } from './set.js';
import { registerConfigUnset } from './unset.js';

export function registerConfig(program: Command, ctx: Context, withSubcommands = true): void {
  const config = program
    .command('config')
    .summary('read and change settings: addresses and defaults')
    .description(
      'Read and change payorder settings: the auth and checkout base addresses per environment and API ' +
        'version (payorder appends /1 or /v2/api itself), and the default environment, version and output.',
    );
  examples(config, [
    [
      'where stage v2 tokens come from',
      'payorder config set stage.v2.auth-url https://auth.stage.example.com',
    ],
    ['see what is set', 'payorder config list'],
    ['script on JSON by default', 'payorder config set default-output json'],
    ['every key with what it does', 'payorder config list --all | grep url'],
  ]);
  if (!withSubcommands) return;
  registerConfigGet(config, ctx);
  registerConfigSet(config, ctx);
  registerConfigUnset(config, ctx);
  registerConfigList(config, ctx);
}
