/**
 * `payorder __complete LIST`, the work: the words of a list, for a completion script to offer. The
 * store is only read (without one there is the default profile alone, and nothing is created), only
 * names are printed, and any problem gives an empty answer: completing must never break the shell.
 */
import type { DynamicList } from '../completion/dynamic-lists.js';
import type { Context } from '../context.js';
import { profileNames } from '../store/profile-data.js';

const LISTS: Record<DynamicList, (ctx: Context) => Promise<string[]>> = {
  // A store that passes its checks holds only names that match PROFILE_NAME: plain shell words.
  profiles: async (ctx) => profileNames((await ctx.store()).read()),
};

export async function runComplete(list: string | undefined, ctx: Context): Promise<string[]> {
  if (list === undefined || !Object.hasOwn(LISTS, list)) return [];
  try {
    return await LISTS[list as DynamicList](ctx);
  } catch {
    // A broken, foreign or unreadable store: its problem is told by the commands that use it.
    return [];
  }
}

/** One word a line on stdout, as the scripts read them; nothing at all for an empty list. */
export function renderComplete(words: string[], ctx: Context): void {
  if (words.length > 0) ctx.io.stdout.write(`${words.join('\n')}\n`);
}
