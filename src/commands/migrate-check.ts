/**
 * `payorder migrate-check`: is this integration ready for v2? Reads bodies, HAR captures, source
 * code and payorder's own setup; reports what breaks on v2 and exactly how to fix it. This file
 * declares the command; migrate-check.run.ts does the work.
 */
import { type Command, Option } from 'commander';
import { conventions, examples, jsonOption } from '../cli/options.js';
import type { Context } from '../context.js';
import { ENV_CHOICES } from '../contract/environments.js';
import type { MigrateFlags } from './migrate-check.run.js';

export function registerMigrateCheck(program: Command, ctx: Context): void {
  const command = program
    .command('migrate-check')
    .summary('is this v1 integration ready for v2?')
    .description(
      'Check an integration for what breaks on API v2 before v1 is switched off on 2026-12-31: request ' +
        'bodies (JSON, arrays, NDJSON), request records, HAR captures, Postman collections, configuration ' +
        '(.env, YAML, JSON, Terraform/HCL, .properties), source code in any language (honoring .gitignore), ' +
        'and your payorder setup. Exit 0 when ready (no error), 1 when not, 2 on bad usage, 5 when --live ' +
        'could not reach the service.',
    )
    .argument('[paths...]', 'files or folders to check; - for stdin')
    .option('--config', "check payorder's own setup: v2 addresses for every environment you are logged into")
    .addOption(
      new Option('--live <env>', 'make a real v2 token request with the stored credentials').choices(
        ENV_CHOICES,
      ),
    )
    .option(
      '--profile <name>',
      'with --live: the profile whose login is used (default: PAYORDER_PROFILE, else default)',
    );
  jsonOption(command, 'print the report as JSON')
    .addOption(new Option('--format <format>', 'report format').choices(['text', 'json', 'sarif']))
    .option(
      '--fix',
      'print the unified diff that migrates source code and configuration, and the v2 equivalents of bodies and HAR captures',
    )
    .option(
      '--write',
      'with --fix: change source and configuration in place (in a git work tree without uncommitted changes to them), bodies, captures and Postman collections as NAME.v2.EXT',
    )
    .option('--force', 'with --fix --write: write outside git, or over uncommitted changes')
    .option(
      '--v2-auth-url <url>',
      'with --fix: the v2 auth address that replaces v1 ones (else your environments tell)',
    )
    .option('--v2-checkout-url <url>', 'with --fix: the v2 checkout address that replaces v1 ones')
    .option('--rules', 'list the rules, each with the spec step it comes from and a bad and a good example')
    .option(
      '--exclude <glob>',
      'leave out files and folders matching a .gitignore-style pattern (repeatable; .payorderignore files too)',
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .option(
      '--baseline <file>',
      "accept the findings recorded in FILE and fail only on new ones; with no FILE yet, record this run's",
    )
    .option('--baseline-update', "with --baseline: record this run's findings in FILE, over what it held");
  conventions(command);
  examples(command, [
    ['check a shop and your payorder setup', 'payorder migrate-check src/ --config'],
    ['in CI code scanning', 'payorder migrate-check . --format sarif > migrate.sarif'],
    ['in CI, failing only on new findings', 'payorder migrate-check . --baseline .payorder-baseline.json'],
    ['v2 bodies from recorded v1 ones', 'payorder migrate-check orders.ndjson --fix > orders.v2.ndjson'],
    ['migrate a shop in place (git is the undo)', 'payorder migrate-check shop/ --fix --write'],
    [
      'only the errors, as a list',
      'payorder migrate-check src/ --json | jq -r \'.findings[] | select(.severity == "error") | .location.file\' | sort -u',
    ],
  ]);
  command.action(async (paths: string[], flags: MigrateFlags) => {
    const run = await import('./migrate-check.run.js');
    const options = run.parseMigrateOptions(paths, flags);
    run.renderMigrateCheck(await run.runMigrateCheck(options, ctx), options, ctx);
  });
}
