/**
 * The completion model, read from commander's command tree: every command path with its
 * subcommands, its own options (and what values each takes), and its positional arguments.
 * Every shell's script is generated from this one model.
 */
import type { Command, Option } from 'commander';

/** What an option or argument takes: nothing (a flag), any text, a file, or one of some words. */
export type ValueKind =
  | { kind: 'flag' }
  | { kind: 'any' }
  | { kind: 'files' }
  | { kind: 'choices'; words: string[] };

export interface OptionModel {
  long?: string;
  short?: string;
  description: string;
  value: ValueKind;
}

export interface CommandModel {
  /** "" for the root, "order create" for a nested command. */
  path: string;
  subcommands: Array<{ name: string; description: string }>;
  options: OptionModel[];
  args: ValueKind;
}

/** Options whose value is a file name. */
const FILE_OPTIONS = new Set(['--input', '--journal', '--client-secret-file', '--state']);

function valueKindOf(option: Option): ValueKind {
  if (!option.required && !option.optional) return { kind: 'flag' };
  if (option.argChoices) return { kind: 'choices', words: [...option.argChoices] };
  if (option.long && FILE_OPTIONS.has(option.long)) return { kind: 'files' };
  return { kind: 'any' };
}

const HELP: OptionModel = { long: '--help', short: '-h', description: 'show help', value: { kind: 'flag' } };

export function buildModel(program: Command): CommandModel[] {
  const models: CommandModel[] = [];
  const visit = (command: Command, path: string) => {
    const subcommands = command.commands.map((c) => ({
      name: c.name(),
      description: c.summary() || c.description().split('\n')[0]!,
    }));
    if (subcommands.length > 0) subcommands.push({ name: 'help', description: 'show help for a command' });
    const options: OptionModel[] = command.options
      .filter((option) => !option.hidden)
      .map((option) => ({
        long: option.long,
        short: option.short,
        description: option.description,
        value: valueKindOf(option),
      }));
    options.push(HELP);
    const argument = command.registeredArguments[0];
    const args: ValueKind = !argument
      ? { kind: 'flag' }
      : argument.argChoices
        ? { kind: 'choices', words: [...argument.argChoices] }
        : command.name() === 'migrate-check'
          ? { kind: 'files' }
          : { kind: 'any' };
    models.push({ path, subcommands, options, args });
    for (const sub of command.commands) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(program, '');
  return models;
}

export function optionNames(option: OptionModel): string[] {
  return [option.short, option.long].filter((name): name is string => Boolean(name));
}
