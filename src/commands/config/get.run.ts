/** `payorder config get KEY`, the work: one setting's value, or a usage error when it is not set. */
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import type { ConfigKey } from '../../session/config-keys.js';
import { configKeyOrFail } from './key.js';

export const parseConfigGetOptions = (key: string) => ({ key: configKeyOrFail(key) });

export async function runConfigGet(options: { key: ConfigKey }, ctx: Context): Promise<string> {
  const { key } = options;
  const value = key.get((await ctx.store()).read());
  if (value === undefined)
    throw usageError(`${key.key} is not set`, {
      field: key.key,
      hint: `payorder config set ${key.key} VALUE`,
    });
  return value;
}

/** The value alone on stdout, for $(…). */
export function renderConfigGet(value: string, ctx: Context): void {
  ctx.io.stdout.write(`${value}\n`);
}
