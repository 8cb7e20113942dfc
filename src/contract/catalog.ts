/**
 * The error catalog of spec §7 as data: status, code, exact text and condition of every row.
 * `id` names a row for people and for the sandbox's forced errors; it is the code where one exists.
 */

export type Endpoint = 'token' | 'order';

export interface CatalogEntry {
  id: string;
  endpoint: Endpoint;
  status: number;
  /** Absent for the rows the spec shows without a code. */
  code?: string;
  /** The exact text: `description` on the token endpoint, `message` on order endpoints. */
  text: string;
  condition: string;
}

export const CATALOG = [
  {
    id: '3001',
    endpoint: 'token',
    status: 400,
    code: '3001',
    text: 'One or more required fields are empty',
    condition: 'Missing or empty required fields',
  },
  {
    id: '3002',
    endpoint: 'token',
    status: 400,
    code: '3002',
    text: 'Unsupported grant type',
    condition: 'grant_type not supported',
  },
  {
    id: '3003',
    endpoint: 'token',
    status: 401,
    code: '3003',
    text: 'User account not found',
    condition: 'Unknown user',
  },
  {
    id: '3005',
    endpoint: 'token',
    status: 401,
    code: '3005',
    text: 'The provided client id does not correspond to any active user',
    condition: 'Invalid client_id',
  },
  {
    id: '3006',
    endpoint: 'token',
    status: 401,
    code: '3006',
    text: 'Error authenticating user. Invalid credentials',
    condition: 'Invalid client_secret_id',
  },
  {
    id: 'token-500',
    endpoint: 'token',
    status: 500,
    text: 'Something bad happened. Please try again.',
    condition: 'Server failure',
  },
  {
    id: '1001',
    endpoint: 'order',
    status: 400,
    code: '1001',
    text: 'Invalid request error. One or more mandatory fields are missing.',
    condition: 'Generic: missing mandatory field',
  },
  {
    id: '1003',
    endpoint: 'order',
    status: 400,
    code: '1003',
    text: 'Invalid amount format. Amount must have only numbers and a single point.',
    condition: 'Bad amount format',
  },
  {
    id: '1004',
    endpoint: 'order',
    status: 400,
    code: '1004',
    text: 'Invalid username. Cannot find a valid user for the provided value.',
    condition: 'Unknown userName',
  },
  {
    id: 'unauthorized',
    endpoint: 'order',
    status: 401,
    text: 'Unauthorized',
    condition: 'Missing or invalid token',
  },
  {
    id: '1002',
    endpoint: 'order',
    status: 403,
    code: '1002',
    text: 'Invalid credentials. The corresponding username does not match with these credentials.',
    condition: "userName does not match the token's credentials",
  },
  {
    id: 'expired',
    endpoint: 'order',
    status: 403,
    text: 'User is not authorized to access this resource with an explicit deny',
    condition: 'Expired token',
  },
  {
    id: '999',
    endpoint: 'order',
    status: 500,
    code: '999',
    text: 'Something bad happened. Please try again.',
    condition: 'Server failure',
  },
] as const satisfies readonly CatalogEntry[];

export type CatalogId = (typeof CATALOG)[number]['id'];
/** The rows of one endpoint, so a table over them can be checked for completeness. */
export type CatalogIdOf<E extends Endpoint> = Extract<(typeof CATALOG)[number], { endpoint: E }>['id'];

const BY_ID = new Map<string, CatalogEntry>(CATALOG.map((entry) => [entry.id, entry]));

export function catalogEntry(id: CatalogId): CatalogEntry {
  const entry = BY_ID.get(id);
  // CatalogId is the type of the rows' ids: every one names a row.
  if (!entry) throw new Error(`no catalog row ${id}`);
  return entry;
}

export function findCatalogEntry(id: string): CatalogEntry | undefined {
  return BY_ID.get(id);
}

/** The body the service sends for a row: code + description (token) or code + message (order). */
export function errorBody(entry: CatalogEntry): Record<string, string> {
  const textField = entry.endpoint === 'token' ? 'description' : 'message';
  return entry.code ? { code: entry.code, [textField]: entry.text } : { [textField]: entry.text };
}

/** Finds the row an answer matches: by code, else by status and exact text (the code-less rows). */
export function matchCatalog(endpoint: Endpoint, status: number, body: unknown): CatalogEntry | undefined {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const code = typeof fields.code === 'string' ? fields.code : undefined;
  const text = fields.description ?? fields.message;
  return CATALOG.find(
    (entry: CatalogEntry) =>
      entry.endpoint === endpoint &&
      (code ? entry.code === code : !entry.code && entry.status === status && entry.text === text),
  );
}
