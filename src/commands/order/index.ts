/**
 * `payorder order`: the group of order commands.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { registerOrderCreate } from './create.js';
import { registerOrderGet } from './get.js';

export function registerOrder(program: Command, ctx: Context): void {
  const order = program
    .command('order')
    .summary('create and look up payment orders')
    .description('Create payment orders and look them up.');
  registerOrderCreate(order, ctx);
  registerOrderGet(order, ctx);
}
