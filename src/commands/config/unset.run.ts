/** `payorder config unset KEY`, the work: the setting is removed; its built-in default applies again. */
import type { Context } from '../../context.js';
import type { ConfigKey } from '../../session/config-keys.js';
import { note } from '../../terminal/messages.js';
import { configKeyOrFail } from './key.js';

export const parseConfigUnsetOptions = (key: string) => ({ key: configKeyOrFail(key) });

export async function runConfigUnset(options: { key: ConfigKey }, ctx: Context): Promise<ConfigKey> {
  await (await ctx.store()).update((data) => options.key.set(data, undefined));
  return options.key;
}

export function renderConfigUnset(key: ConfigKey, ctx: Context): void {
  note(ctx, `${key.key} unset`);
}
