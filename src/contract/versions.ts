/**
 * Versions, paths and the v1 sunset (spec §4, §9). Everything that differs by address lives here.
 */

export const API_VERSIONS = ['v1', 'v2'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** The last day v1 answers; from the next day on it is unavailable (spec §9). */
export const V1_SUNSET = '2026-12-31';

/**
 * What v1 answers from the day after its sunset: the spec shows no status, so this is payorder's
 * choice (the sandbox answers it, payorder recognises it): 410 Gone, with this text in the
 * endpoint's error field (the token endpoint's `description`, the order endpoints' `message`).
 */
export const V1_GONE = { status: 410, text: `API v1 was switched off on ${V1_SUNSET}; use API v2` } as const;

const DAY_MS = 86_400_000;

/** Whole days from `now` (UTC date) until the sunset day; 0 on the day itself, negative after. */
export function daysUntilSunset(now: Date): number {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((Date.parse(`${V1_SUNSET}T00:00:00Z`) - today) / DAY_MS);
}

/** The version prefix appended to the auth and checkout base addresses. */
export const PREFIX: Record<ApiVersion, string> = { v1: '/1', v2: '/v2/api' };

/** The lookup path after the prefix, with its parameter (v1 by id, v2 by uuid). */
const LOOKUP: Record<ApiVersion, string> = { v1: '/order/:id', v2: '/orders/:uuid' };

export const PATHS = {
  token: (version: ApiVersion) => `${PREFIX[version]}/auth/token`,
  checkout: (version: ApiVersion) => `${PREFIX[version]}/checkout`,
  /** The lookup path for one order, or the route pattern when `id` is omitted. */
  lookup: (version: ApiVersion, id?: string) =>
    PREFIX[version] +
    (id === undefined ? LOOKUP[version] : LOOKUP[version].replace(/:\w+$/, encodeURIComponent(id))),
} as const;

/** Joins a configured base address ("https://host/x/") and a path ("/1/checkout") with one slash. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}
