/**
 * `payorder sandbox`: runs the local emulator of the whole service until Ctrl-C or SIGTERM.
 */
import type { Command } from 'commander';
import { withConventions, withExamples } from '../cli/shared-options.js';
import type { Context } from '../context.js';
import { usageError } from '../errors.js';
import { note } from '../output/messages.js';

export interface SandboxFlags {
  port: string;
  host: string;
  account: string[];
  tokenTtl: string;
  latency?: string;
  failRate?: string;
  state?: string;
  journalLimit: string;
  json?: boolean;
  quiet?: boolean;
}

function whole(value: string, name: string, min: number, max: number): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < min || number > max) {
    throw usageError(`${name}: must be a whole number from ${min} to ${max}, got "${value}"`, {
      field: name,
    });
  }
  return number;
}

export async function runSandbox(flags: SandboxFlags, ctx: Context): Promise<void> {
  const port = whole(flags.port, '--port', 0, 65_535);
  const tokenTtlSeconds = whole(flags.tokenTtl, '--token-ttl', 1, 31_536_000);
  const latencyMs = flags.latency === undefined ? 0 : whole(flags.latency, '--latency', 0, 600_000);
  const journalLimit = whole(flags.journalLimit, '--journal-limit', 1, 1_000_000);
  const failRate = flags.failRate === undefined ? 0 : Number(flags.failRate);
  if (!(failRate >= 0 && failRate <= 1))
    throw usageError('--fail-rate: must be a number from 0 to 1', { field: '--fail-rate' });

  const { parseAccount, TEST_ACCOUNT } = await import('../sandbox/accounts.js');
  const { startSandbox } = await import('../sandbox/server.js');
  const { StateFileError } = await import('../sandbox/orders.js');
  let accounts: Awaited<ReturnType<typeof parseAccount>>[];
  try {
    accounts = flags.account.map(parseAccount);
  } catch (error) {
    throw usageError((error as Error).message, { field: '--account' });
  }
  const log = !flags.quiet && !flags.json;
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox({
      port,
      host: flags.host,
      accounts,
      tokenTtlSeconds,
      latencyMs,
      failRate,
      stateFile: flags.state,
      journalLimit,
      onRequest: log
        ? ({ method, path, status, ms }) => note(ctx, `${method} ${path} → ${status} (${ms.toFixed(1)} ms)`)
        : undefined,
    });
  } catch (error) {
    if (error instanceof StateFileError) throw usageError(error.message, { field: '--state' });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw usageError(`--port: ${flags.port} is already in use; pick another or --port 0 for a free one`, {
        field: '--port',
      });
    throw error;
  }
  const shown = sandbox.core.accounts;
  if (flags.json) {
    ctx.io.stdout.write(
      `${JSON.stringify({
        url: sandbox.url,
        port: sandbox.port,
        accounts: shown.map((a) => ({
          username: a.username,
          client_id: a.clientId,
          client_secret_id: a.clientSecretId,
        })),
        token_ttl: tokenTtlSeconds,
      })}\n`,
    );
  } else if (!flags.quiet) {
    const builtIn = accounts.length === 0;
    ctx.io.stdout.write(
      [
        `payorder sandbox listening on ${sandbox.url}`,
        `  v1: ${sandbox.url}/1/auth/token, ${sandbox.url}/1/checkout, ${sandbox.url}/1/order/:id`,
        `  v2: ${sandbox.url}/v2/api/auth/token, ${sandbox.url}/v2/api/checkout, ${sandbox.url}/v2/api/orders/:uuid`,
        `  control: ${sandbox.url}/_sandbox`,
        builtIn
          ? `  test account: username ${TEST_ACCOUNT.username}, client id ${TEST_ACCOUNT.clientId}, secret ${TEST_ACCOUNT.clientSecretId}`
          : `  accounts: ${shown.map((a) => `${a.username} (client id ${a.clientId})`).join(', ')}`,
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
  }
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
  if (log) note(ctx, 'sandbox stopped');
}

export function registerSandbox(program: Command, ctx: Context): void {
  const command = program
    .command('sandbox')
    .summary('run a local emulator of the whole service')
    .description(
      'Run a local, spec-faithful emulator of the Payment Order Service: both API versions, tokens, orders, ' +
        'a payment page and a /_sandbox control API (journal, clock, forced errors and faults).',
    )
    .option('-p, --port <n>', 'port to listen on; 0 picks a free one', '4010')
    .option('--host <address>', 'address to bind', '127.0.0.1')
    .option(
      '--account <user:client_id:secret>',
      'an account that may log in (repeatable; default: the built-in test account)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option('--token-ttl <seconds>', 'token lifetime', '86400')
    .option('--latency <ms>', 'delay every service answer')
    .option('--fail-rate <r>', 'fail this share (0–1) of service requests with the server error')
    .option('--state <file>', 'keep orders in this file across restarts')
    .option('--journal-limit <n>', 'how many requests the journal keeps', '2000')
    .option('--json', 'print one JSON line with the address and accounts when ready, and no request log');
  withConventions(command);
  withExamples(command, [
    ['start on the default port 4010', 'payorder sandbox'],
    ['a free port, address for scripts', 'payorder sandbox --port 0 --json | head -1 | jq -r .url'],
    [
      'two accounts, orders kept across restarts',
      'payorder sandbox --account alice:cli-a:s3cret --account bob:cli-b:pw --state orders.json',
    ],
  ]);
  command.action((flags: SandboxFlags) => runSandbox(flags, ctx));
}
