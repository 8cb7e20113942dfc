/**
 * The completion model, read from commander's command tree: every command path with its
 * subcommands, its own options (and what values each takes), and its positional arguments.
 * Every shell's script is generated from this one model. Hidden commands are left out.
 */
import type { Argument, Command, Option } from 'commander';
import { CONFIG_KEYS } from '../session/config-keys.js';
import type { DynamicList } from './dynamic-lists.js';

/**
 * What an option or argument takes: nothing (a flag), any text, a file, one of some words, or one
 * of the words of a list that payorder prints when asked while completing (`payorder __complete LIST`).
 */
export type ValueKind =
  | { kind: 'flag' }
  | { kind: 'any' }
  | { kind: 'files' }
  | { kind: 'choices'; words: string[] }
  | { kind: 'dynamic'; list: DynamicList };

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
  /** What each positional argument takes, in order. */
  args: ValueKind[];
  /** Whether the last argument takes any number of words (each completed as it is). */
  variadic: boolean;
}

/** Options whose value is a file name. */
const FILE_OPTIONS = new Set(['--input', '--journal', '--client-secret-file', '--state']);

/** Options whose values only this machine knows, and the list that has them. */
const DYNAMIC_OPTIONS = new Map<string, DynamicList>([['--profile', 'profiles']]);

function valueKindOf(option: Option): ValueKind {
  if (!option.required && !option.optional) return { kind: 'flag' };
  if (option.argChoices) return { kind: 'choices', words: [...option.argChoices] };
  const list = option.long && DYNAMIC_OPTIONS.get(option.long);
  if (list) return { kind: 'dynamic', list };
  if (option.long && FILE_OPTIONS.has(option.long)) return { kind: 'files' };
  return { kind: 'any' };
}

/** Arguments whose words come from payorder itself, by command path and position. */
const ARGUMENT_WORDS: Record<string, Record<number, () => string[]>> = {
  'config get': { 0: configKeys },
  'config set': { 0: configKeys },
  'config unset': { 0: configKeys },
};

function configKeys(): string[] {
  return CONFIG_KEYS.map((key) => key.key);
}

function argumentKind(path: string, command: Command, argument: Argument, index: number): ValueKind {
  const words = ARGUMENT_WORDS[path]?.[index];
  if (words) return { kind: 'choices', words: words() };
  if (argument.argChoices) return { kind: 'choices', words: [...argument.argChoices] };
  return command.name() === 'migrate-check' ? { kind: 'files' } : { kind: 'any' };
}

const HELP: OptionModel = { long: '--help', short: '-h', description: 'show help', value: { kind: 'flag' } };

/** A command's subcommands that its help lists: the hidden ones (`payorder __complete`) left out. */
export function listedSubcommands(command: Command): Command[] {
  const visible = new Set(command.createHelp().visibleCommands(command));
  return command.commands.filter((sub) => visible.has(sub));
}

export function buildModel(program: Command): CommandModel[] {
  const models: CommandModel[] = [];
  const visit = (command: Command, path: string) => {
    const listed = listedSubcommands(command);
    const subcommands = listed.map((c) => ({
      name: c.name(),
      description: c.summary() || c.description().replace(/\n[\s\S]*$/, ''),
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
    const args = command.registeredArguments.map((argument, index) =>
      argumentKind(path, command, argument, index),
    );
    const variadic = command.registeredArguments.at(-1)?.variadic ?? false;
    models.push({ path, subcommands, options, args, variadic });
    for (const sub of listed) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(program, '');
  return models;
}

export function optionNames(option: OptionModel): string[] {
  return [option.short, option.long].filter((name): name is string => Boolean(name));
}
