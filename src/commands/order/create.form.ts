/**
 * `payorder order create` on a terminal: asks (through the context's Prompter) for the fields that
 * are missing, each checked as it is typed by the very rules the flags follow (orders/draft.ts), and
 * asks for a confirmation before an order asked for this way is sent to production.
 */
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import { checkField, columnName, type OrderFields, type RequiredField } from '../../orders/draft.js';
import { PromptCancelled } from '../../terminal/prompter.js';
import { escapeControl } from '../../terminal/terminal-text.js';

const QUESTIONS: Record<RequiredField, string> = {
  amount: 'Amount (major units, e.g. 12.50):',
  description: 'Description:',
  success: 'Link after a successful payment:',
  fail: 'Link after a failed payment:',
};

/** A prompt's answer; Ctrl-C or Ctrl-D in a prompt cancels the command, and nothing is sent. */
async function answer<T>(prompt: () => Promise<T>): Promise<T> {
  try {
    return await prompt();
  } catch (error) {
    if (error instanceof PromptCancelled) throw new CliError('interrupted', 'cancelled; nothing was sent');
    throw error;
  }
}

/** What is wrong with a typed value, as the flag's rule says it ("amount: must be greater than zero"). */
function problemWith(field: RequiredField, value: string): true | string {
  try {
    checkField(field, value, columnName);
    return true;
  } catch (error) {
    if (error instanceof CliError) return escapeControl(error.message);
    throw error;
  }
}

/** Asks for each missing field in turn; an answer is accepted only once it follows the field's rule. */
export async function askOrderFields(ctx: Context, missing: RequiredField[]): Promise<OrderFields> {
  const answers: OrderFields = {};
  for (const field of missing) {
    answers[field] = await answer(() =>
      ctx.prompter.input({ message: QUESTIONS[field], validate: (value) => problemWith(field, value) }),
    );
  }
  return answers;
}

/** Shows the request that is about to go to production and asks whether to send it (no by default). */
export async function confirmSending(ctx: Context, request: string): Promise<void> {
  ctx.io.stderr.write(`${escapeControl(request, { keepNewlines: true })}\n`);
  const send = await answer(() =>
    ctx.prompter.confirm({ message: 'Create this order in production?', default: false }),
  );
  if (!send) throw new CliError('usage', 'not confirmed; nothing was sent');
}
