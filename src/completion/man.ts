/**
 * The manual page payorder(1), in roff, generated from commander's command tree as the completion
 * scripts are: every command with its usage, description, arguments, options (with their choices
 * and defaults) and examples, then the root help's overview (workflows, environment, exit codes).
 * It carries no version or date, so the same tree always gives the same page.
 */
import type { EventEmitter } from 'node:events';
import type { Command, Option } from 'commander';
import { listedSubcommands } from './model.js';

/**
 * Text as roff shows it: backslashes escaped, characters beyond ASCII as their Unicode escapes
 * (groff and mandoc both read them, whatever the locale), and no line that starts as a request.
 */
function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(
      /[^\x00-\x7f]/gu,
      (char) => `\\[u${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}]`,
    )
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

/** A flag or command word, where a hyphen is a hyphen (\-) rather than a place to break. */
const literal = (text: string) => roff(text).replace(/-/g, '\\-');

/** What a command prints after its help (its examples; the overview for the root). */
function afterHelp(command: Command): string {
  let text = '';
  // Commander writes its help texts from listeners of these events: ask them for the text.
  (command as unknown as EventEmitter).emit('afterHelp', {
    error: false,
    command,
    write: (chunk: string) => (text += chunk),
  });
  return text;
}

/** A command's examples: pairs of what it does and the command line. */
function examplesOf(command: Command): Array<[string, string]> {
  const section = afterHelp(command).split('\nExamples:\n')[1] ?? '';
  const pairs: Array<[string, string]> = [];
  let what = '';
  for (const line of section.split('\n')) {
    if (line.startsWith('  # ')) what = line.slice(4);
    else if (line.startsWith('  $ ')) pairs.push([what, line.slice(4)]);
  }
  return pairs;
}

function optionText(option: Option): string {
  const extras: string[] = [];
  if (option.argChoices) extras.push(`one of: ${option.argChoices.join(', ')}`);
  if (
    option.defaultValue !== undefined &&
    option.defaultValue !== false &&
    !Array.isArray(option.defaultValue)
  )
    extras.push(`default: ${String(option.defaultValue)}`);
  return roff(extras.length > 0 ? `${option.description} (${extras.join('; ')})` : option.description);
}

function commandSection(command: Command, path: string): string[] {
  const lines = [
    `.SS "${literal(path)}"`,
    `.B ${literal(path)}`,
    roff(command.usage()),
    '.PP',
    roff(command.description()),
  ];
  for (const argument of command.registeredArguments) {
    if (!argument.description) continue;
    lines.push(
      '.TP',
      `.I ${roff(argument.name())}${argument.variadic ? '...' : ''}`,
      roff(argument.description),
    );
  }
  for (const option of command.options.filter((o) => !o.hidden)) {
    lines.push('.TP', `.B ${literal(option.flags)}`, optionText(option));
  }
  const examples = examplesOf(command);
  if (examples.length > 0) {
    lines.push('.PP', 'Examples:', '.RS');
    for (const [what, line] of examples)
      lines.push('.PP', roff(what), '.nf', `\\fB${literal(line)}\\fR`, '.fi');
    lines.push('.RE');
  }
  return lines;
}

/**
 * Every command below `command` that does work or groups others, depth first, with its full name;
 * hidden ones (`payorder __complete`, for the completion scripts) are not for people to read about.
 */
function commandsOf(command: Command, path: string): Array<[Command, string]> {
  return listedSubcommands(command).flatMap((sub) => {
    const subPath = `${path} ${sub.name()}`;
    return [[sub, subPath] as [Command, string], ...commandsOf(sub, subPath)];
  });
}

export function manPage(program: Command): string {
  const name = program.name();
  // The overview's exit codes are the page's EXIT STATUS, the section man readers look for; the
  // paragraphs around them stay in OVERVIEW.
  const [before = '', after = ''] = afterHelp(program)
    .trim()
    .split(/\n*Exit codes:\n/);
  const [exitCodes = '', ...rest] = after.split('\n\n');
  const overview = [before, ...rest].join('\n\n');
  const lines = [
    `.\\" ${name}(1); generated from the command tree by \`${name} man\`, do not edit.`,
    `.TH ${name.toUpperCase()} 1 "" "${name}" "User Commands"`,
    '.SH NAME',
    `${name} \\- ${roff(program.description())}`,
    '.SH SYNOPSIS',
    `.B ${name}`,
    '.I command',
    '[\\fIoptions\\fR] [\\fIarguments\\fR]',
    '.SH DESCRIPTION',
    roff(program.description()),
    'Every command has \\fB\\-\\-help\\fR with examples; the README in the package has the workflows.',
    '.SH COMMANDS',
    ...commandsOf(program, name).flatMap(([command, path]) => commandSection(command, path)),
    '.SH OVERVIEW',
    '.nf',
    roff(overview.trim()),
    '.fi',
    '.SH "EXIT STATUS"',
    '.nf',
    roff(exitCodes.replace(/^ {2}/gm, '')),
    '.fi',
    '.SH SEE ALSO',
    `The README.md of the ${name} package.`,
  ];
  return `${lines.join('\n')}\n`;
}
