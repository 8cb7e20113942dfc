/**
 * The v2 addresses payorder itself knows: for every profile and environment with both a v1 and a v2
 * address (stored, or the environment's own), the v1 origin and the v2 base that replaces it.
 */
import type { Context } from '../../context.js';
import { ENVIRONMENTS } from '../../contract/environments.js';
import { resolveAddress } from '../../session/target.js';
import { profileNames } from '../../store/profile-data.js';
import { type AddressKind, type KnownAddress, originOf, v2Base } from './v2-addresses.js';

export async function configuredAddresses(ctx: Context): Promise<KnownAddress[]> {
  const store = await ctx.store();
  const data = store.read();
  const known: KnownAddress[] = [];
  for (const profile of profileNames(data))
    for (const env of ENVIRONMENTS)
      for (const kind of ['auth', 'checkout'] as AddressKind[]) {
        const v1 = resolveAddress(ctx, data, { profile, env }, 'v1', kind);
        const v2 = resolveAddress(ctx, data, { profile, env }, 'v2', kind);
        const v1Origin = v1 && originOf(v1);
        // One address for both versions (an override such as PAYORDER_AUTH_URL) tells nothing.
        if (!v1Origin || !v2 || v1 === v2) continue;
        if (!known.some((entry) => entry.kind === kind && entry.v1Origin === v1Origin))
          known.push({ kind, v1Origin, v2: v2Base(v2) });
      }
  return known;
}
