/**
 * `payorder config get|set|unset|list`: addresses per environment and version, and the defaults.
 */
import type { Command } from 'commander';
import { withConventions, withExamples } from '../cli/shared-options.js';
import type { Context } from '../context.js';
import { usageError } from '../errors.js';
import { note } from '../output/messages.js';
import { CONFIG_KEYS, type ConfigKey, findConfigKey } from '../session/config-keys.js';

function keyOrFail(key: string): ConfigKey {
  const found = findConfigKey(key);
  if (found) return found;
  const near = nearest(
    key,
    CONFIG_KEYS.map((k) => k.key),
  );
  throw usageError(`unknown config key "${key}"${near ? `; did you mean ${near}?` : ''}`, {
    hint: 'payorder config list --all shows every key',
    field: 'key',
  });
}

/** The closest candidate by edit distance, when it is close enough to be a typo. */
export function nearest(word: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(3, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

export async function runConfigGet(key: string, ctx: Context): Promise<void> {
  const entry = keyOrFail(key);
  const value = entry.get((await ctx.store()).read());
  if (value === undefined)
    throw usageError(`${entry.key} is not set`, {
      field: entry.key,
      hint: `payorder config set ${entry.key} VALUE`,
    });
  ctx.io.stdout.write(`${value}\n`);
}

export async function runConfigSet(key: string, value: string, ctx: Context): Promise<void> {
  const entry = keyOrFail(key);
  const checked = entry.check(value);
  const store = await ctx.store();
  await store.update((data) => entry.set(data, checked));
  note(ctx, `${entry.key} = ${checked}`);
}

export async function runConfigUnset(key: string, ctx: Context): Promise<void> {
  const entry = keyOrFail(key);
  await (await ctx.store()).update((data) => entry.set(data, undefined));
  note(ctx, `${entry.key} unset`);
}

export async function runConfigList(flags: { json?: boolean; all?: boolean }, ctx: Context): Promise<void> {
  const data = (await ctx.store()).read();
  const rows = CONFIG_KEYS.map((k) => ({
    key: k.key,
    value: k.get(data) ?? null,
    description: k.description,
  })).filter((row) => flags.all || row.value !== null);
  if (flags.json || !ctx.io.stdoutIsTTY) {
    ctx.io.stdout.write(
      `${JSON.stringify(Object.fromEntries(rows.map((r) => [r.key, r.value])), null, 2)}\n`,
    );
    return;
  }
  if (rows.length === 0) note(ctx, 'nothing configured yet; payorder config list --all shows every key');
  const width = Math.max(0, ...rows.map((r) => r.key.length));
  for (const row of rows)
    ctx.io.stdout.write(
      `${row.key.padEnd(width)}  ${row.value ?? '-'}${flags.all ? `  (${row.description})` : ''}\n`,
    );
}

export function registerConfig(program: Command, ctx: Context): void {
  const config = program
    .command('config')
    .summary('read and change settings: addresses and defaults')
    .description(
      'Read and change payorder settings: the auth and checkout base addresses per environment and API ' +
        'version (payorder appends /1 or /v2/api itself), and the default environment, version and output.',
    );
  withExamples(config, [
    [
      'where stage v2 tokens come from',
      'payorder config set stage.v2.auth-url https://auth.stage.example.com',
    ],
    ['see what is set', 'payorder config list'],
    ['script on JSON by default', 'payorder config set default-output json'],
    ['every key with what it does', 'payorder config list --all | grep url'],
  ]);
  const sub = (name: string, description: string, examples: Array<[string, string]>) =>
    withExamples(withConventions(config.command(name).description(description)), examples);
  sub('get', 'print one setting', [
    ['where stage v2 orders go', 'payorder config get stage.v2.checkout-url'],
    ['in a script', 'curl -s "$(payorder config get sandbox.v2.checkout-url)/_sandbox" | jq .orders'],
  ])
    .argument('<key>', 'the setting, e.g. stage.v2.auth-url')
    .action((key: string) => runConfigGet(key, ctx));
  sub('set', 'change one setting', [
    ['the stage v2 token address', 'payorder config set stage.v2.auth-url https://auth.stage.example.com'],
    ['JSON unless asked otherwise', 'payorder config set default-output json'],
    ['from a file of KEY VALUE lines', 'xargs -n2 payorder config set < payorder.settings'],
  ])
    .argument('<key>', 'the setting')
    .argument('<value>', 'its new value')
    .action((key: string, value: string) => runConfigSet(key, value, ctx));
  sub('unset', 'remove one setting', [
    ['back to the built-in default', 'payorder config unset default-output'],
    [
      'forget every stage address',
      'payorder config list --json | jq -r "keys[]" | grep "^stage\\." | xargs -n1 payorder config unset',
    ],
  ])
    .argument('<key>', 'the setting')
    .action((key: string) => runConfigUnset(key, ctx));
  sub('list', 'list settings', [
    ['what is set', 'payorder config list'],
    ['every key, with what it does', 'payorder config list --all | grep url'],
  ])
    .option('--all', 'include settings that are not set, with what each does')
    .option('--json', 'print JSON')
    .action((flags: { json?: boolean; all?: boolean }) => runConfigList(flags, ctx));
}
