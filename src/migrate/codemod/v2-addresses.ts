/**
 * Where the v2 addresses come from. The spec does not publish v2's hosts: a v1 address in the code is
 * replaced by the v2 address of payorder's own environment whose v1 address has the same origin, or
 * by the address given with --v2-auth-url / --v2-checkout-url. Otherwise only the prefix changes,
 * the host stays, and the codemod leaves a marked TODO naming the flag.
 */
import { PREFIX } from '../../contract/versions.js';

export type AddressKind = 'auth' | 'checkout';

/** A known pair: a v1 origin and the v2 base address (with its /v2/api prefix) that replaces it. */
export interface KnownAddress {
  kind: AddressKind;
  v1Origin: string;
  v2: string;
}

export interface V2Addresses {
  /** From --v2-auth-url / --v2-checkout-url. */
  given: Partial<Record<AddressKind, string>>;
  /** From payorder's environments (every profile), v1 and v2 addresses side by side. */
  known: KnownAddress[];
}

export const FLAG_OF: Record<AddressKind, string> = { auth: '--v2-auth-url', checkout: '--v2-checkout-url' };

/** The address as a v2 base: its own path when it has /v2/api already, else with /v2/api added. */
export function v2Base(address: string): string {
  const trimmed = address.replace(/\/+$/, '');
  return trimmed.endsWith(PREFIX.v2) ? trimmed : `${trimmed}${PREFIX.v2}`;
}

export function originOf(address: string): string | undefined {
  try {
    return new URL(address).origin;
  } catch {
    return undefined;
  }
}

/** Which address a literal is, from what it holds or the name it is given ("AUTH_URL"), if it tells. */
export function kindOf(context: string): AddressKind | undefined {
  if (/auth|token/i.test(context)) return 'auth';
  return /checkout|order/i.test(context) ? 'checkout' : undefined;
}

/**
 * The v2 base replacing `origin` + /1, or why there is none: the kind (from `context`) tells which
 * flag would give it.
 */
export function v2For(
  addresses: V2Addresses,
  origin: string,
  context: string,
): { v2: string } | { unknown: AddressKind | undefined } {
  const kind = kindOf(context);
  const known = addresses.known.filter((entry) => entry.v1Origin === origin);
  const match = known.find((entry) => entry.kind === kind) ?? (known.length === 1 ? known[0] : undefined);
  if (match) return { v2: match.v2 };
  const given = kind ? addresses.given[kind] : undefined;
  if (given) return { v2: v2Base(given) };
  return { unknown: kind };
}
