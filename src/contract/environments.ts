/**
 * The environments payorder talks to. "test" is the spec's other name for stage. Production is
 * never a default: it is used only when named.
 */

export const ENVIRONMENTS = ['production', 'stage', 'sandbox'] as const;
export type EnvName = (typeof ENVIRONMENTS)[number];

/** What --env accepts, aliases included (for help and completions). */
export const ENV_CHOICES = ['production', 'stage', 'test', 'sandbox'] as const;
export type EnvChoice = (typeof ENV_CHOICES)[number];

export const DEFAULT_ENV: EnvName = 'stage';

/** The sandbox's address when nothing else is configured: `payorder sandbox` listens there by default. */
export const SANDBOX_DEFAULT_URL = 'http://127.0.0.1:4010';

/** "test" → "stage"; undefined for a name that is no environment. */
export function normalizeEnv(name: EnvChoice): EnvName;
export function normalizeEnv(name: string): EnvName | undefined;
export function normalizeEnv(name: string): EnvName | undefined {
  const lower = name.toLowerCase();
  if (lower === 'test') return 'stage';
  return (ENVIRONMENTS as readonly string[]).includes(lower) ? (lower as EnvName) : undefined;
}
