/**
 * `payorder token`: prints a valid access token for scripts, renewing it when needed.
 */
import type { Command } from 'commander';
import { withConventions, withExamples, withTarget } from '../cli/shared-options.js';
import type { Context } from '../context.js';
import type { TargetFlags } from '../session/target.js';

export async function runToken(flags: TargetFlags, ctx: Context): Promise<void> {
  const { openSession } = await import('../session/session.js');
  const session = await openSession(ctx, flags);
  ctx.io.stdout.write(`${await session.token()}\n`);
}

export function registerToken(program: Command, ctx: Context): void {
  const command = program
    .command('token')
    .summary('print a valid access token for scripts')
    .description(
      'Print a valid access token (renewed from the stored credentials when needed), for scripts and curl.',
    );
  withTarget(command);
  withConventions(command);
  withExamples(command, [
    [
      'call the service with curl',
      'curl -H "Authorization: Bearer $(payorder token --env sandbox)" http://127.0.0.1:4010/v2/api/orders/UUID',
    ],
    ['a v1 token', 'payorder token --env stage --api v1'],
    ['how long it lives', 'payorder token --env sandbox | cut -d. -f2 | base64 -d 2>/dev/null | jq .exp'],
  ]);
  command.action((flags: TargetFlags) => runToken(flags, ctx));
}
