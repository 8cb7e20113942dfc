/**
 * The lists a completion script asks payorder for while it completes, because they are known only on
 * the machine it runs on (the profiles in the store), not when the script is generated. The scripts
 * call `payorder __complete LIST`, which prints one. A leaf module: the command tree, the completion
 * model and the entry point read it.
 */

/** The hidden command the scripts call; help, the man page and the completions leave it out. */
export const COMPLETE_COMMAND = '__complete';

/** The lists `payorder __complete` answers. */
export const DYNAMIC_LISTS = ['profiles'] as const;
export type DynamicList = (typeof DYNAMIC_LISTS)[number];
