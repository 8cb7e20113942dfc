/**
 * The command lines payorder's hints give, pasteable as they stand: every word shell-quoted where a
 * shell would split or expand it, and the target named: its environment always (a hint may be read
 * in another shell, where another default applies), its profile unless it is the default one, and
 * its API version when the profile's environment would use another one by default.
 */
import type { Target } from './api/service.js';
import type { ApiVersion } from './contract/versions.js';
import { shellWord } from './store/private-path.js';
import { profileEnvFlags } from './store/profile-data.js';

/** What a hint needs of a target: where it goes, and the version a command without --api would use there. */
export type HintTarget = Pick<Target, 'profile' | 'env' | 'version'> & { impliedVersion?: ApiVersion };

/**
 * `payorder WORDS… --env ENV [--profile P] [--api V]`: `words` are the command and its arguments,
 * quoted here; `api: false` for commands without --api (logout, status).
 */
export function commandLine(words: readonly string[], target: HintTarget, { api = true } = {}): string {
  const flags = [profileEnvFlags(target)];
  if (api && target.version !== (target.impliedVersion ?? 'v2')) flags.push(`--api ${target.version}`);
  return ['payorder', ...words.map(shellWord), ...flags].join(' ');
}
