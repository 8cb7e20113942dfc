/**
 * Checks payorder's own setup for v2: every environment you are logged into has v2 addresses
 * (--config), and a real v2 token request works with the stored credentials (--live ENV).
 */
import type { Context } from '../context.js';
import { ENVIRONMENTS, type EnvName } from '../contract/environments.js';
import { CliError } from '../errors.js';
import { openSession } from '../session/session.js';
import { configKey, resolveAddress, resolveTarget } from '../session/target.js';
import { type Finding, finding } from './rules.js';

export async function checkConfig(ctx: Context): Promise<Finding[]> {
  const store = await ctx.store();
  const data = store.read();
  const findings: Finding[] = [];
  for (const env of ENVIRONMENTS) {
    const profile = data.environments?.[env];
    if (!profile?.credentials) continue;
    const at = { file: store.path, pointer: `/environments/${env}` };
    const missing = (['auth', 'checkout'] as const).filter(
      (kind) => !resolveAddress(ctx, data, env, 'v2', kind),
    );
    if (missing.length > 0) {
      findings.push(
        finding(
          'PO301',
          at,
          `${env} has no v2 ${missing.join(' and ')} address`,
          missing.map((kind) => `payorder config set ${configKey(env, 'v2', kind)} https://…`).join('; '),
        ),
      );
    }
    if (profile.api === 'v1') {
      findings.push(
        finding('PO302', at, `${env} uses API v1 by default`, `payorder login --env ${env} --api v2`),
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

export async function checkLive(ctx: Context, env: EnvName): Promise<LiveCheck> {
  const store = await ctx.store();
  const at = { file: store.path, pointer: `/environments/${env}` };
  try {
    const target = resolveTarget(ctx, { env, api: 'v2' }, store.read());
    const session = await openSession(ctx, target);
    const issued = await session.client.requestToken(session.credentials);
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
