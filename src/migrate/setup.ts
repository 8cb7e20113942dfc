/**
 * Checks payorder's own setup for v2: every environment you are logged into, in every profile, has
 * v2 addresses (--config), and a real v2 token request works with the stored credentials (--live ENV,
 * with the chosen profile's login).
 */
import type { Context } from '../context.js';
import { ENVIRONMENTS, type EnvName } from '../contract/environments.js';
import { CliError } from '../errors.js';
import { openSession } from '../session/session.js';
import { configKey, resolveAddress, resolveProfile, resolveTarget } from '../session/target.js';
import {
  DEFAULT_PROFILE,
  describeProfileEnv,
  type ProfileEnv,
  profileEnvFlags,
  profileNames,
  storedEnvironment,
} from '../store/profile-data.js';
import { type Finding, finding } from './rules.js';

/** Where a profile keeps an environment in the store's JSON, for a finding's location. */
const pointerOf = ({ profile, env }: ProfileEnv) =>
  profile === DEFAULT_PROFILE ? `/environments/${env}` : `/profiles/${profile}/environments/${env}`;

export async function checkConfig(ctx: Context): Promise<Finding[]> {
  const store = await ctx.store();
  const data = store.read();
  const findings: Finding[] = [];
  const logins = profileNames(data).flatMap((profile) => ENVIRONMENTS.map((env) => ({ profile, env })));
  for (const login of logins) {
    const { env } = login;
    const stored = storedEnvironment(data, login);
    if (!stored?.credentials) continue;
    const at = { file: store.path, pointer: pointerOf(login) };
    const name = describeProfileEnv(login);
    const missing = (['auth', 'checkout'] as const).filter(
      (kind) => !resolveAddress(ctx, data, login, 'v2', kind),
    );
    if (missing.length > 0) {
      findings.push(
        finding(
          'PO301',
          at,
          `${name} has no v2 ${missing.join(' and ')} address`,
          missing.map((kind) => `payorder config set ${configKey(env, 'v2', kind)} https://…`).join('; '),
        ),
      );
    }
    if (stored.api === 'v1') {
      findings.push(
        finding(
          'PO302',
          at,
          `${name} uses API v1 by default`,
          `payorder login ${profileEnvFlags(login)} --api v2`,
        ),
      );
    }
  }
  // The default applies to every environment without a version of its own, logged in or not yet.
  if (data.defaults?.api === 'v1')
    findings.push(
      finding(
        'PO302',
        { file: store.path, pointer: '/defaults/api' },
        'default-api is v1: environments without a version of their own use API v1',
        'payorder config set default-api v2',
      ),
    );
  return findings;
}

/** What --live found, or why it could not tell. */
export interface LiveCheck {
  findings: Finding[];
  /** Why the check could not be made (the service unreachable or failing): no verdict either way. */
  notChecked?: string;
}

/** Errors that say nothing about the integration: the service could not be reached or failed. */
function couldNotCheck(error: CliError): boolean {
  return (
    error.kind === 'network' ||
    error.kind === 'outcome_unknown' ||
    (error.kind === 'rejected' && (error.details.status ?? 0) >= 500)
  );
}

/** --live ENV: a real v2 token request with the login of `profile` (--profile, as given). */
export async function checkLive(ctx: Context, env: EnvName, profile?: string): Promise<LiveCheck> {
  const store = await ctx.store();
  // A name against the rule is bad usage (exit 2), not a finding.
  const chosen = resolveProfile(ctx, { profile });
  const at = { file: store.path, pointer: pointerOf({ profile: chosen, env }) };
  try {
    const target = resolveTarget(ctx, { env, api: 'v2', profile: chosen }, store.read());
    const session = await openSession(ctx, target);
    const issued = await session.client.requestToken(await session.withSecret());
    return {
      findings: [
        finding(
          'PO303',
          at,
          `a v2 token request on ${env} succeeded (expires in ${issued.expiresIn} s)`,
          'nothing to change',
          'info',
        ),
      ],
    };
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    if (couldNotCheck(error)) return { findings: [], notChecked: `--live ${env}: ${error.message}` };
    if (error.kind === 'config')
      return {
        findings: [finding('PO303', at, error.message, error.details.hint ?? 'configure the v2 addresses')],
      };
    return {
      findings: [
        finding(
          'PO303',
          at,
          `a v2 token request on ${env} failed: ${error.message}`,
          error.details.hint ?? 'check the v2 addresses and credentials',
        ),
      ],
    };
  }
}
