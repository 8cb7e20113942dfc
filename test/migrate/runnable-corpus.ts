/**
 * The runnable integrations (test/fixtures/migrate/runnable, see its README.md): their manifest, the
 * truth file of each (the edits that make its v1 copy a v2 program), and how a harness runs one.
 * Shared by the test that runs them against the sandbox and the one that measures migrate-check's
 * recall on them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { hasTool } from '../helpers/tools.js';

export const RUNNABLE = resolve(import.meta.dirname, '../fixtures/migrate/runnable');

/** The kinds of required edit, and the migrate-check rule that reports each. */
export const KIND_RULES = {
  address: 'PO101',
  'token-user-name': 'PO102',
  'order-username': 'PO103',
  amount: 'PO104',
  'payment-link': 'PO105',
  lookup: 'PO106',
  refunded: 'PO107',
  'v1-only-field': 'PO110',
} as const;
export type EditKind = keyof typeof KIND_RULES;
export const KINDS = Object.keys(KIND_RULES) as EditKind[];

export interface Integration {
  name: string;
  language: string;
  shape: string;
  library: string;
  /** The command line, run in the version's folder; `${NAME}` is taken from the environment. */
  run: string[];
  /** A command that compiles the program in the version's folder before `run` (mcs, kotlinc). */
  build?: string[];
  /** A command that exits 0 where the integration's library is installed (run with the same program). */
  check?: string[];
  /** Tools besides the program of `run` (curl, jq). */
  tools?: string[];
  /** Files the integration needs (`${NAME}` from the environment), such as a library's jar. */
  files?: string[];
}

export interface Edit {
  /** Relative to the integration's v1 folder. */
  file: string;
  line: number;
  kind: EditKind;
}

export const integrations: Integration[] = JSON.parse(readFileSync(join(RUNNABLE, 'manifest.json'), 'utf8'));

export const truthOf = (integration: Integration): Edit[] =>
  JSON.parse(readFileSync(join(RUNNABLE, integration.name, 'truth.json'), 'utf8')).edits;

/** The files of a folder, relative to it, with forward slashes, sorted. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(dir.length + 1)
        .split('\\')
        .join('/'),
    )
    .sort();
}

/**
 * Where each program of a manifest's `run` is found: the first on PATH, else Debian's in /usr/bin
 * (a python3 of pyenv or a Ruby of rbenv may come first on PATH without the library an integration
 * uses). With a `check`, the first of those that passes it.
 */
export function resolveProgram(integration: Integration): { program?: string; reason?: string } {
  const [name] = integration.run as [string];
  const candidates = [
    ...(hasTool(name) ? [name] : []),
    ...(existsSync(`/usr/bin/${name}`) ? [`/usr/bin/${name}`] : []),
  ];
  if (candidates.length === 0) return { reason: `${name} is not installed` };
  const needed = [...(integration.build ? [integration.build[0]!] : []), ...(integration.tools ?? [])];
  const missingTools = needed.filter((tool) => !hasTool(tool));
  if (missingTools.length > 0) return { reason: `${missingTools.join(' and ')} not installed` };
  const missingFiles = (integration.files ?? [])
    .map((file) => expand(file))
    .filter((file) => !existsSync(file));
  if (missingFiles.length > 0)
    return { reason: `${integration.library} is not installed (${missingFiles.join(', ')})` };
  if (!integration.check) return { program: candidates[0] };
  const [, ...args] = integration.check;
  for (const program of candidates) {
    const result = spawnSync(
      program,
      args.map((word) => expand(word)),
      { stdio: 'ignore', timeout: 20_000 },
    );
    if (result.status === 0) return { program };
  }
  return { reason: `${integration.library} is not installed for ${name} (${integration.check.join(' ')})` };
}

/**
 * Compiles the program of an integration in `dir` where its manifest has a `build` (C#'s mcs,
 * Kotlin's kotlinc); resolves to the compiler's output when it fails, to undefined otherwise.
 */
export async function build(
  integration: Integration,
  dir: string,
  env: Record<string, string | undefined>,
): Promise<string | undefined> {
  if (!integration.build) return undefined;
  const [program, ...args] = integration.build as [string, ...string[]];
  const built = await execa(program, args, {
    cwd: dir,
    env,
    extendEnv: false,
    reject: false,
    timeout: 120_000,
    all: true,
  });
  return built.exitCode === 0
    ? undefined
    : `${integration.build.join(' ')} exited ${built.exitCode}:\n${built.all}`;
}

/** Java's libraries as Debian installs them, unless JAVA_LIBS names another folder. */
export const JAVA_LIBS = process.env.JAVA_LIBS ?? '/usr/share/java';

/** `${NAME}` in a manifest's command line, from the environment the integrations run with. */
export const expand = (word: string, env: Record<string, string | undefined> = { JAVA_LIBS }) =>
  word.replace(/\$\{(\w+)\}/g, (_, name: string) => env[name] ?? '');
