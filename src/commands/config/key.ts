/**
 * The config key a subcommand was given, found or refused with a suggestion.
 */

import { usageError } from '../../errors.js';
import { CONFIG_KEYS, type ConfigKey, findConfigKey } from '../../session/config-keys.js';
import { nearest } from '../../terminal/suggestions.js';

export function configKeyOrFail(key: string): ConfigKey {
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
