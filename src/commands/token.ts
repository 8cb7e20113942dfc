/**
 * `payorder token`: prints a valid access token for scripts, renewing it when needed. This file
 * declares the command; token.run.ts does the work.
 */
import type { Command } from 'commander';
import { conventions, examples, insecureHttpOption, targetOptions } from '../cli/options.js';
import type { Context } from '../context.js';
import type { TargetFlags } from '../session/target.js';

export function registerToken(program: Command, ctx: Context): void {
  const command = program
    .command('token')
    .summary('print a valid access token for scripts')
    .description(
      'Print a valid access token (renewed from the stored credentials when needed), for scripts and curl.',
    );
  targetOptions(command);
  insecureHttpOption(command);
  conventions(command);
  examples(command, [
    [
      'call the service with curl',
      'curl -H "Authorization: Bearer $(payorder token --env sandbox)" http://127.0.0.1:4010/v2/api/orders/UUID',
    ],
    ['a v1 token', 'payorder token --env stage --api v1'],
    ['how long it lives', 'payorder token --env sandbox | cut -d. -f2 | base64 -d 2>/dev/null | jq .exp'],
  ]);
  command.action(async (flags: TargetFlags) => {
    const run = await import('./token.run.js');
    run.renderToken(await run.runToken(await run.parseTokenOptions(flags, ctx), ctx), ctx);
  });
}
