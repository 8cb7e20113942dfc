/**
 * The flags several commands share, defined once: which service to talk to, how to show data, and
 * the conventions every command follows (--debug, --quiet, --no-input, --no-color).
 */
import { type Command, Option } from 'commander';
import { API_VERSIONS } from '../contract/versions.js';
import { OUTPUT_FORMATS } from '../output/formats.js';
import { ENV_CHOICES } from '../session/environments.js';

export function withTarget(command: Command, { api = true } = {}): Command {
  command.addOption(
    new Option(
      '--env <name>',
      'environment (default: PAYORDER_ENV, the configured default, else stage)',
    ).choices(ENV_CHOICES),
  );
  if (api) {
    command.addOption(
      new Option('--api <version>', "API version (default: PAYORDER_API, the profile's, else v2)").choices(
        API_VERSIONS,
      ),
    );
  }
  return command;
}

export function withOutput(command: Command, { fields = true } = {}): Command {
  command
    .option('--json', 'print JSON (the default when stdout is not a terminal)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(OUTPUT_FORMATS));
  if (fields) {
    command
      .option('--field <path>', 'print only this field of each order, e.g. links.checkout')
      .option('--raw', "print the service's body verbatim")
      .option('--no-headers', 'leave out the header row of -o tsv');
  }
  return command;
}

export function withConventions(command: Command): Command {
  return command
    .option('--debug', 'trace HTTP exchanges on stderr, secrets masked (or PAYORDER_DEBUG=1)')
    .option('-q, --quiet', 'print only data and errors')
    .option('--no-input', 'never prompt; fail instead when something is missing')
    .option('--no-color', 'no colors (also NO_COLOR=1 or TERM=dumb)');
}

/** Appends an "Examples:" section to a command's help. */
export function withExamples(command: Command, examples: Array<[string, string]>): Command {
  const lines = examples.map(([what, cmd]) => `  # ${what}\n  $ ${cmd}`);
  return command.addHelpText('after', `\nExamples:\n${lines.join('\n\n')}\n`);
}
