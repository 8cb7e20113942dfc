import type { Command } from 'commander';
import type { Context } from '../context.js';

export function registerMigrateCheck(_program: Command, _ctx: Context): void {}
