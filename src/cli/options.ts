/**
 * The flags several commands share, declared once (which service to talk to, how to show data,
 * how many requests in flight, the conventions every command follows), and the parsers that turn
 * their raw values into typed options. A parser does every check that needs no network and throws
 * a usage error naming the flag and the rule.
 */
import { type Command, Option } from 'commander';
import { ENV_CHOICES } from '../contract/environments.js';
import { API_VERSIONS } from '../contract/versions.js';
import { usageError } from '../errors.js';
import { OUTPUT_FORMATS, type OutputFormat, type OutputOptions } from '../output/formats.js';
import { orderFieldPath } from '../output/order-view.js';
import { duration, wholeNumber } from '../values.js';

/**
 * --env, (unless `api` is false) --api, and --profile: which environment and version to talk to,
 * with whose login. A profile name is checked where it is resolved (session/target.ts), with
 * PAYORDER_PROFILE's.
 */
export function targetOptions(command: Command, { api = true } = {}): Command {
  command.addOption(
    new Option(
      '--env <name>',
      'environment (default: PAYORDER_ENV, the configured default, else stage)',
    ).choices(ENV_CHOICES),
  );
  if (api) {
    command.addOption(
      new Option('--api <version>', "API version (default: PAYORDER_API, the login's, else v2)").choices(
        API_VERSIONS,
      ),
    );
  }
  command.option(
    '--profile <name>',
    'named profile: its own logins and tokens per environment (default: PAYORDER_PROFILE, else default)',
  );
  return command;
}

/** The raw values of the output flags, as commander gives them. */
export interface OutputFlags {
  output?: string;
  json?: boolean;
  field?: string;
  raw?: boolean;
  headers?: boolean;
}

/** --json, and for commands that show orders also -o, --field, --raw and --no-headers. */
export function outputOptions(command: Command, { orders = true } = {}): Command {
  jsonOption(command, 'print JSON (the default when stdout is not a terminal)');
  command.addOption(new Option('-o, --output <format>', 'output format').choices(OUTPUT_FORMATS));
  if (orders) {
    command
      .option('--field <path>', 'print only this field of each order, e.g. links.checkout')
      .option('--raw', "print the service's body verbatim")
      .option('--no-headers', 'leave out the header row of -o tsv');
  }
  return command;
}

/**
 * --json, and --jq to filter it (output/jq-output.ts); `jq: false` for the commands that run until
 * stopped (the sandbox, a listener), whose JSON lines must not wait for the end.
 */
export function jsonOption(command: Command, description = 'print JSON', { jq = true } = {}): Command {
  command.option('--json', description);
  if (jq)
    command.option(
      '--jq <expr>',
      'filter the JSON output with a jq expression, strings printed raw (jq 1.8)',
    );
  return command;
}

/**
 * The output flags as options; commander has already held -o to its choices. --field is checked
 * against the documented shape of an order, and flags that contradict each other are refused.
 */
export function parseOutputOptions(flags: OutputFlags): OutputOptions {
  if (flags.json && flags.output !== undefined && flags.output !== 'json')
    throw usageError(`--json and -o ${flags.output} ask for two formats; give one`, { field: '--output' });
  const format = (flags.output ?? (flags.json ? 'json' : undefined)) as OutputFormat | undefined;
  const field = flags.field === undefined ? undefined : orderFieldPath(flags.field);
  if (field && flags.raw && !field.leaf)
    throw usageError(
      `--raw prints one value, and --field ${flags.field} is an object; drop --raw or pick one of its fields`,
      {
        field: '--raw',
      },
    );
  return { format, field: field?.path, raw: Boolean(flags.raw), headers: flags.headers !== false };
}

export const MAX_CONCURRENCY = 64;

/** --concurrency: how many requests a command keeps in flight. */
export function concurrencyOption(command: Command, description: string): Command {
  return command.option('--concurrency <n>', description, '4');
}

export const parseConcurrency = (value: string) => wholeNumber('--concurrency', 1, MAX_CONCURRENCY)(value);

/** How long --wait waits when --timeout is not given. */
export const DEFAULT_WAIT = '10m';

/** The raw values of --wait and --timeout. */
export interface WaitFlags {
  wait?: boolean;
  timeout?: string;
}

/** --wait and --timeout: wait until an order leaves PENDING. */
export function waitOptions(command: Command, description: string): Command {
  return command
    .option('--wait', description)
    .option(
      '--timeout <duration>',
      `with --wait: how long to wait, e.g. 30s, 10m, 1h (default ${DEFAULT_WAIT})`,
    );
}

/** --wait as options: how long to wait in milliseconds, or undefined without --wait. */
export function parseWaitOptions(flags: WaitFlags): { timeoutMs: number } | undefined {
  if (!flags.wait) {
    if (flags.timeout !== undefined) throw usageError('--timeout goes with --wait', { field: '--timeout' });
    return undefined;
  }
  return { timeoutMs: duration('--timeout', 1, 24 * 3600)(flags.timeout ?? DEFAULT_WAIT) };
}

/**
 * --debug, --quiet, --no-input and --no-color: the conventions every command follows.
 *
 * commander stores --no-input under the name of `--input <file>` (order create and order get), so
 * either would undo the other. --no-input is kept apart as `prompts: false`, and `input` keeps the
 * file whatever the order of the two.
 */
export function conventions(command: Command): Command {
  let file: string | undefined;
  return command
    .option('--debug', 'trace HTTP exchanges on stderr, secrets masked (or PAYORDER_DEBUG=1)')
    .option('-q, --quiet', 'print only data and errors')
    .option('--no-input', 'never prompt; fail instead when something is missing')
    .option('--no-color', 'no colors (also NO_COLOR=1 or TERM=dumb)')
    .on('option:input', (value: string) => {
      file = value;
    })
    .on('option:no-input', () => {
      command.setOptionValue('input', file);
      command.setOptionValue('prompts', false);
    });
}

/**
 * --allow-insecure-http, for the commands that send to or store a service address: allows http://
 * addresses for production and stage, with a warning each time (session/cleartext.ts).
 */
export function insecureHttpOption(command: Command): Command {
  return command.option(
    '--allow-insecure-http',
    'allow http:// addresses for production and stage: the secret and tokens travel unencrypted (warned each time)',
  );
}

/** Appends an "Examples:" section to a command's help. */
export function examples(command: Command, list: Array<[string, string]>): Command {
  const lines = list.map(([what, cmd]) => `  # ${what}\n  $ ${cmd}`);
  return command.addHelpText('after', `\nExamples:\n${lines.join('\n\n')}\n`);
}
