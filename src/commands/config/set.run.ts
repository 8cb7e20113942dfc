/** `payorder config set KEY VALUE`, the work: the value is checked by the key's rule, then stored. */
import type { Context } from '../../context.js';
import { note } from '../../output/messages.js';
import type { ConfigKey } from '../../session/config-keys.js';
import { configKeyOrFail } from './key.js';

export interface ConfigSetOptions {
  key: ConfigKey;
  value: string;
}

export function parseConfigSetOptions(key: string, value: string): ConfigSetOptions {
  const entry = configKeyOrFail(key);
  return { key: entry, value: entry.check(value) };
}

export async function runConfigSet(options: ConfigSetOptions, ctx: Context): Promise<ConfigSetOptions> {
  await (await ctx.store()).update((data) => options.key.set(data, options.value));
  return options;
}

export function renderConfigSet({ key, value }: ConfigSetOptions, ctx: Context): void {
  note(ctx, `${key.key} = ${value}`);
}
