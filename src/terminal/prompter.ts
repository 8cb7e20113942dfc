/**
 * Asking a person something: the Prompter the context carries (ctx.prompter). On a terminal it is
 * @inquirer's prompts, drawn on stderr (stdout carries data) and read from stdin, each loaded only
 * when a question is asked; a test gives one of its own that answers from a script.
 */
export interface Question {
  message: string;
  /** true when the answer will do, else what is wrong with it: shown, and the question asked again. */
  validate?: (value: string) => true | string;
}

export interface Prompter {
  /** A line of text. */
  input(question: Question): Promise<string>;
  /** A secret: each character typed shows as `*`. */
  password(question: Question): Promise<string>;
  /** Yes or no, `default` on Enter alone. */
  confirm(question: { message: string; default: boolean }): Promise<boolean>;
}

/** A question left unanswered: Ctrl-C or Ctrl-D in a prompt, or the command stopping. */
export class PromptCancelled extends Error {
  override name = 'PromptCancelled';
}

/** The prompts of a terminal: `stdin` typed into, drawn on `stderr`; `signal` ends a prompt. */
export function terminalPrompter(
  io: { stdin: NodeJS.ReadableStream; stderr: NodeJS.WritableStream },
  signal: AbortSignal,
): Prompter {
  const context = { input: io.stdin, output: io.stderr, signal };
  const answer = async <T>(prompt: () => Promise<T>): Promise<T> => {
    try {
      return await prompt();
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'ExitPromptError' || name === 'AbortPromptError') throw new PromptCancelled(name);
      throw error;
    }
  };
  // Only the prompts asked for are loaded: the prompts collection would bring its editor prompt and,
  // with it, a charset converter.
  return {
    async input(question) {
      const { default: input } = await import('@inquirer/input');
      return answer(() => input(question, context));
    },
    async password(question) {
      const { default: password } = await import('@inquirer/password');
      return answer(() => password({ ...question, mask: '*' }, context));
    },
    async confirm(question) {
      const { default: confirm } = await import('@inquirer/confirm');
      return answer(() => confirm(question, context));
    },
  };
}
