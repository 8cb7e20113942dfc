/**
 * A Prompter that answers payorder's questions from a script, in process (no terminal): each
 * question takes the next answer; an answer the question's check refuses is kept with the reason,
 * and the next answer goes to the same question, as a person types again. CANCEL is Ctrl-C.
 */
import { PromptCancelled, type Prompter, type Question } from '../../src/terminal/prompter.js';

export const CANCEL = Symbol('Ctrl-C');
export type Answer = string | boolean | typeof CANCEL;

/** A question payorder asked: how (input, password or confirm), what it said, what was refused. */
export interface Asked {
  kind: 'input' | 'password' | 'confirm';
  message: string;
  /** What the check said of each refused answer, in turn. */
  refused: string[];
  answer?: string | boolean;
}

export function scriptedPrompter(script: Answer[]) {
  const answers = [...script];
  const asked: Asked[] = [];
  const take = (message: string): Answer => {
    const answer = answers.shift();
    if (answer === undefined) throw new Error(`the script has no answer left for "${message}"`);
    if (answer === CANCEL) throw new PromptCancelled('ExitPromptError');
    return answer;
  };
  const text =
    (kind: 'input' | 'password') =>
    async ({ message, validate }: Question): Promise<string> => {
      const question: Asked = { kind, message, refused: [] };
      asked.push(question);
      for (;;) {
        const answer = take(message);
        if (typeof answer !== 'string')
          throw new Error(`"${message}" wants text, the script gives ${String(answer)}`);
        const verdict = validate?.(answer) ?? true;
        if (verdict === true) {
          question.answer = answer;
          return answer;
        }
        question.refused.push(verdict);
      }
    };
  const prompter: Prompter = {
    input: text('input'),
    password: text('password'),
    async confirm({ message }) {
      asked.push({ kind: 'confirm', message, refused: [] });
      const answer = take(message);
      if (typeof answer !== 'boolean')
        throw new Error(`"${message}" wants yes or no, the script gives ${String(answer)}`);
      asked[asked.length - 1]!.answer = answer;
      return answer;
    },
  };
  return { prompter, asked };
}
