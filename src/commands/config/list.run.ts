/** `payorder config list`, the work: the settings that are set (or all, with what each does). */
import type { Context } from '../../context.js';
import { chooseFormat, render } from '../../output/render.js';
import { CONFIG_KEYS } from '../../session/config-keys.js';
import { note } from '../../terminal/messages.js';

export interface ConfigListFlags {
  json?: boolean;
  all?: boolean;
}

export interface ConfigRow {
  key: string;
  value: string | null;
  description: string;
}

export const parseConfigListOptions = (flags: ConfigListFlags) => ({
  json: Boolean(flags.json),
  all: Boolean(flags.all),
});

export async function runConfigList(options: { all: boolean }, ctx: Context): Promise<ConfigRow[]> {
  const data = (await ctx.store()).read();
  return CONFIG_KEYS.map((k) => ({
    key: k.key,
    value: k.get(data) ?? null,
    description: k.description,
  })).filter((row) => options.all || row.value !== null);
}

export function renderConfigList(
  rows: ConfigRow[],
  options: { json: boolean; all: boolean },
  ctx: Context,
): void {
  const format = chooseFormat(ctx, { asked: options.json ? 'json' : undefined });
  if (format === 'table' && rows.length === 0)
    note(ctx, 'nothing configured yet; payorder config list --all shows every key');
  render(ctx, format, {
    json: Object.fromEntries(rows.map((r) => [r.key, r.value])),
    human: () => {
      const width = Math.max(0, ...rows.map((r) => r.key.length));
      return rows
        .map(
          (row) =>
            `${row.key.padEnd(width)}  ${row.value ?? '-'}${options.all ? `  (${row.description})` : ''}`,
        )
        .join('\n');
    },
  });
}
