/**
 * `payorder order`: the group of order commands.
 */
import type { Command } from 'commander';
import { examples } from '../../cli/options.js';
import type { Context } from '../../context.js';
import { registerOrderCreate } from './create.js';
import { registerOrderFind } from './find.js';
import { registerOrderGet } from './get.js';

export function registerOrder(program: Command, ctx: Context, withSubcommands = true): void {
  const order = program
    .command('order')
    .summary('create and look up payment orders')
    .description('Create payment orders and look them up.');
  examples(order, [
    [
      'a payment link',
      'payorder order create --amount 12.50 --description "Invoice 42" --success https://shop.example/ok --fail https://shop.example/ko',
    ],
    ['what happened to an order', 'payorder order get 3f0c6a1e-8d2b-4f7a-9c1e-2b6d5a4e7f10'],
    ["the customer has only the shop's reference", 'payorder order find --ref WEB-1003'],
    ['only the statuses, for a script', 'payorder order get --input ids.txt -o ndjson | jq -r .status'],
  ]);
  if (!withSubcommands) return;
  registerOrderCreate(order, ctx);
  registerOrderGet(order, ctx);
  registerOrderFind(order, ctx);
}
