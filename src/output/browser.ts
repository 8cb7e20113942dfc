/**
 * Opens a link in the browser the way gh does: when $BROWSER is set, its command (split into words
 * as a shell would, run without a shell) with the link appended as the last argument; otherwise
 * the system's opener (the `open` package: open, xdg-open or start). Whatever the browser command
 * prints goes to stderr: stdout carries payorder's data.
 */
import { spawn } from 'node:child_process';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';
import { CREDENTIAL_VARIABLES } from '../session/credentials.js';

/**
 * The words of a command line as a POSIX shell splits them: blanks separate words, single quotes
 * keep everything, double quotes keep all but \" \\ \$ \`, a backslash outside quotes keeps the
 * next character. Nothing is expanded: no variables, globs or command substitution.
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  // `started`: a word has begun, even an empty one ('' is a word of its own).
  let [word, started] = ['', false];
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line.charAt(i);
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && i + 1 < line.length && '"\\$`'.includes(line.charAt(i + 1)))
        word += line[++i];
      else word += char;
    } else if (/\s/.test(char)) {
      if (started) words.push(word);
      [word, started] = ['', false];
    } else {
      started = true;
      if (char === "'" || char === '"') quote = char;
      else if (char === '\\' && i + 1 < line.length) word += line[++i];
      else word += char;
    }
  }
  if (quote) throw new Error(`an unterminated ${quote} quote`);
  if (started) words.push(word);
  return words;
}

/** Runs the $BROWSER command with the link and waits for it, as gh does; throws why it failed. */
async function runBrowserCommand(ctx: Context, command: string, link: string): Promise<void> {
  let words: string[];
  try {
    words = shellWords(command);
  } catch (error) {
    throw new CliError('usage', `BROWSER has ${(error as Error).message}`, { field: 'BROWSER' });
  }
  const [program, ...args] = words;
  if (program === undefined) throw new CliError('usage', 'BROWSER is blank', { field: 'BROWSER' });
  // The browser gets the environment without payorder's credentials (the client secret above all).
  const env = Object.fromEntries(
    Object.entries(ctx.env).filter(([name]) => !(CREDENTIAL_VARIABLES as readonly string[]).includes(name)),
  );
  const child = spawn(program, [...args, link], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(ctx.io.stderr, { end: false });
  child.stderr.pipe(ctx.io.stderr, { end: false });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  }).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(
      'rejected',
      `BROWSER names ${program}, which cannot be run (${error.code ?? error.message})`,
    );
  });
  if (code !== 0)
    throw new CliError('rejected', `the BROWSER command ${program} exited with ${code ?? 'a signal'}`);
}

/** Opens `link` in the browser: $BROWSER when set, else the system's opener; throws why it could not. */
export async function openInBrowser(ctx: Context, link: string): Promise<void> {
  const command = ctx.env.BROWSER?.trim();
  if (command) return runBrowserCommand(ctx, command, link);
  const { default: open } = await import('open');
  try {
    await open(link);
  } catch (error) {
    throw new CliError('rejected', `no browser could be started (${(error as Error).message})`);
  }
}
