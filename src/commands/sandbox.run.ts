/**
 * `payorder sandbox`, the work: check the flags, start the emulator, show where it listens, and
 * serve until Ctrl-C or SIGTERM.
 */
import { isIPv6 } from 'node:net';
import type { Context } from '../context.js';
import type { Credentials } from '../contract/token.js';
import { usageError } from '../errors.js';
import { chooseFormat, render } from '../output/render.js';
import { parseAccount, TEST_ACCOUNT } from '../sandbox/accounts.js';
import { StateFileError } from '../sandbox/orders.js';
import { isLoopbackName } from '../sandbox/request-guard.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../sandbox/server.js';
import { note, warn } from '../terminal/messages.js';
import { wholeNumber } from '../values.js';

export interface SandboxFlags {
  port: string;
  host: string;
  account: string[];
  tokenTtl: string;
  latency?: string;
  failRate?: string;
  state?: string;
  journalLimit: string;
  allowHost: string[];
  allowListenerHost: string[];
  publicUrl?: string;
  openapi?: boolean;
  json?: boolean;
  quiet?: boolean;
}

export interface SandboxCommandOptions {
  server: SandboxOptions & { port: number; tokenTtlSeconds: number };
  /** Whether the accounts are the built-in test account (then its secret is shown, it is public). */
  builtInAccount: boolean;
  json: boolean;
  /** Log each request on stderr. */
  log: boolean;
}

export function parseSandboxOptions(flags: SandboxFlags, ctx: Context): SandboxCommandOptions {
  const failRate = flags.failRate === undefined ? 0 : Number(flags.failRate);
  if (!(failRate >= 0 && failRate <= 1))
    throw usageError('--fail-rate: must be a number from 0 to 1', { field: '--fail-rate' });
  let accounts: Credentials[];
  try {
    accounts = flags.account.map(parseAccount);
  } catch (error) {
    throw usageError((error as Error).message, { field: '--account' });
  }
  const log = !flags.quiet && !flags.json;
  return {
    server: {
      port: wholeNumber('--port', 0, 65_535)(flags.port),
      host: flags.host,
      accounts,
      tokenTtlSeconds: wholeNumber('--token-ttl', 1, 31_536_000)(flags.tokenTtl),
      latencyMs: flags.latency === undefined ? 0 : wholeNumber('--latency', 0, 600_000)(flags.latency),
      failRate,
      stateFile: flags.state,
      journalLimit: wholeNumber('--journal-limit', 1, 1_000_000)(flags.journalLimit),
      allowHosts: hostNames('--allow-host', flags.allowHost),
      allowListenerHosts: hostNames('--allow-listener-host', flags.allowListenerHost),
      publicUrl: publicUrl(flags.publicUrl),
      onRequest: log
        ? ({ method, path, status, ms }) => note(ctx, `${method} ${path} → ${status} (${ms.toFixed(1)} ms)`)
        : undefined,
    },
    builtInAccount: accounts.length === 0,
    json: Boolean(flags.json),
    log,
  };
}

/** A DNS name (a container's service name may have underscores) or an IPv4 address. */
const NAME = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*$/i;

function hostNames(flag: string, values: string[]): string[] {
  for (const value of values)
    if (!NAME.test(value) && !isIPv6(value.replace(/^\[(.*)\]$/, '$1')))
      throw usageError(
        `${flag}: "${value}" is not a host name (give it without scheme or port, e.g. sandbox)`,
        {
          field: flag,
        },
      );
  return values;
}

function publicUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username)
    throw usageError(`--public-url: "${value}" is not an http(s) address without query or fragment`, {
      field: '--public-url',
    });
  return url.href;
}

export async function runSandbox(options: SandboxCommandOptions, ctx: Context): Promise<Sandbox> {
  const host = options.server.host ?? '127.0.0.1';
  if (!isLoopbackName(host))
    warn(
      ctx,
      `--host ${host} is not a loopback address: the sandbox and its test account will be reachable from other machines`,
    );
  try {
    return await startSandbox(options.server);
  } catch (error) {
    if (error instanceof StateFileError) throw usageError(error.message, { field: '--state' });
    if ((error as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL')
      throw usageError(`--host: ${host} is not an address of this machine`, { field: '--host' });
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw usageError(
        `--port: ${options.server.port} is already in use; pick another or --port 0 for a free one`,
        { field: '--port' },
      );
    throw error;
  }
}

/** The start line: one JSON line with --json, else where each route listens (nothing with --quiet). */
export function renderSandbox(sandbox: Sandbox, options: SandboxCommandOptions, ctx: Context): void {
  const { url } = sandbox;
  const shown = sandbox.core.accounts;
  if (!options.json && ctx.flags.quiet) return;
  render(ctx, chooseFormat(ctx, { asked: options.json ? 'ndjson' : undefined, whenPiped: 'table' }), {
    json: {
      url,
      port: sandbox.port,
      // Never a secret: the start line ends up in CI logs.
      accounts: shown.map((a) => ({ username: a.username, client_id: a.clientId })),
      token_ttl: options.server.tokenTtlSeconds,
    },
    human: () =>
      [
        `payorder sandbox listening on ${url}`,
        `  v1: ${url}/1/auth/token, ${url}/1/checkout, ${url}/1/order/:id`,
        `  v2: ${url}/v2/api/auth/token, ${url}/v2/api/checkout, ${url}/v2/api/orders/:uuid`,
        `  control: ${url}/_sandbox`,
        options.builtInAccount
          ? `  test account: username ${TEST_ACCOUNT.username}, client id ${TEST_ACCOUNT.clientId}, secret ${TEST_ACCOUNT.clientSecretId}`
          : `  accounts: ${shown.map((a) => `${a.username} (client id ${a.clientId})`).join(', ')}`,
        'Press Ctrl-C to stop.',
      ].join('\n'),
  });
}

/** The OpenAPI document, with the address the sandbox would listen on as its server. */
export async function renderOpenApi(options: SandboxCommandOptions, ctx: Context): Promise<void> {
  const { openApiDocument } = await import('../sandbox/openapi.js');
  const host = options.server.host ?? '127.0.0.1';
  const server = `http://${host.includes(':') ? `[${host}]` : host}:${options.server.port}`;
  ctx.io.stdout.write(`${JSON.stringify(openApiDocument(server), null, 2)}\n`);
}

/** Serves until Ctrl-C or SIGTERM, then closes. */
export async function serveSandbox(
  sandbox: Sandbox,
  options: SandboxCommandOptions,
  ctx: Context,
): Promise<void> {
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
  if (options.log) note(ctx, 'sandbox stopped');
}
