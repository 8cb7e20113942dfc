/**
 * `payorder config set KEY VALUE`, the work: the value is checked by the key's rule (an address also
 * by its environment's cleartext rule), then stored.
 */
import type { Context } from '../../context.js';
import { checkCleartext, insecureHttpOf } from '../../session/cleartext.js';
import type { ConfigKey } from '../../session/config-keys.js';
import { note } from '../../terminal/messages.js';
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
  const { key, value } = options;
  const store = await ctx.store();
  if (key.kind === 'address') {
    const use = {
      env: key.env,
      field: key.key,
      url: value,
      fix: (https: string) => `payorder config set ${key.key} ${https}`,
    };
    checkCleartext(ctx, use, insecureHttpOf(ctx, store.read()));
  }
  await store.update((data) => key.set(data, value));
  return options;
}

export function renderConfigSet({ key, value }: ConfigSetOptions, ctx: Context): void {
  note(ctx, `${key.key} = ${value}`);
}
