/**
 * Rules of the source tree's shape that neither the type checker nor the linter enforces: no import
 * cycle among the modules of src/ (type-only imports count: they still tie the modules together),
 * data flows down (no room of src/ imports from a higher one), and only the entry point and the
 * context read the process's environment, standard streams and clock.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');

/** Every TypeScript file of src/, by its path relative to src/ ("orders/batch.ts"). */
const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.ts'))
  .map((path) => path.split('\\').join('/'))
  .sort();

/** The source without comment lines, so a JSDoc example or a commented-out line does not count. */
const withoutComments = (text: string) => text.replace(/^[ \t]*(?:\/\/|\/\*|\*).*$/gm, '');

const source = (file: string) => withoutComments(readFileSync(join(SRC, file), 'utf8'));

// `import … from '…'` and `export … from '…'` (over several lines too), with the clause captured to
// tell type-only imports apart; side-effect imports; `import('…')`, in code or in a type position
// (both counted as loading the module at run time, the safe side for a cycle check).
const STATIC = /^[ \t]*(?:import|export)\s([^;'"`]*?)\bfrom\s*['"]([^'"\n]+)['"]/gm;
const BARE = /^[ \t]*import\s*['"]([^'"\n]+)['"]/gm;
const DYNAMIC = /\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g;

interface Import {
  specifier: string;
  /**
   * `import type …` / `export type … from`: erased, nothing of the module is loaded at run time.
   * `import { type X }` is not: with verbatimModuleSyntax it compiles to `import {} from '…'`.
   */
  typeOnly: boolean;
}

function importsIn(text: string): Import[] {
  const code = withoutComments(text);
  return [
    ...[...code.matchAll(STATIC)].map(([, clause, specifier]) => ({
      specifier: specifier!,
      typeOnly: /^\s*type\s/.test(clause!),
    })),
    ...[...code.matchAll(BARE), ...code.matchAll(DYNAMIC)].map(([, specifier]) => ({
      specifier: specifier!,
      typeOnly: false,
    })),
  ];
}

/** A relative specifier ("../x.js") as the src/ file it names, or undefined (a package, JSON…). */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = resolve(SRC, dirname(from), specifier).replace(/\.js$/, '.ts');
  for (const candidate of [target, `${target}.ts`, join(target, 'index.ts')])
    if (candidate.endsWith('.ts') && existsSync(candidate))
      return relative(SRC, candidate).split('\\').join('/');
  return undefined;
}

/** For each file, the files it imports, each with whether every import of it is type-only. */
type Graph = Map<string, Map<string, boolean>>;

function importGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of files) {
    const edges = new Map<string, boolean>();
    for (const { specifier, typeOnly } of importsIn(source(file))) {
      const target = resolveSpecifier(file, specifier);
      if (target) edges.set(target, (edges.get(target) ?? true) && typeOnly);
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Strongly connected components (Tarjan) that hold a cycle: files that import each other, directly or not. */
function components(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.has(node)) found.push(component);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/**
 * Every elementary cycle, as a chain that starts at its first file by name ("a.ts → b.ts → a.ts"),
 * followed by which of its imports are type-only: those are where it is cheapest to break.
 */
function importCycles(graph: Graph): string[] {
  const cycles: string[] = [];
  for (const component of components(graph)) {
    const order = component.sort();
    // Each cycle once: from its first file, through files that come after it only.
    order.forEach((start, rank) => {
      const allowed = new Set(order.slice(rank));
      const walk = (path: string[]) => {
        for (const next of graph.get(path.at(-1)!)?.keys() ?? []) {
          if (next === start) cycles.push(describeCycle(graph, path));
          else if (allowed.has(next) && !path.includes(next)) walk([...path, next]);
        }
      };
      walk([start]);
    });
  }
  return cycles.sort();
}

function describeCycle(graph: Graph, path: string[]): string {
  const links = path.map((file, i) => [file, path[(i + 1) % path.length]!] as const);
  const typeLinks = links.filter(([from, to]) => graph.get(from)!.get(to)).map((link) => link.join(' → '));
  const note = typeLinks.length > 0 ? `type-only: ${typeLinks.join('; ')}` : 'every import loads at run time';
  return `${[...path, path[0]].join(' → ')}   (${note})`;
}

describe('the import reader', () => {
  it('finds every kind of import and tells the type-only ones', () => {
    const text = [
      "import { a,\n  b,\n  type C,\n} from './multi-line.js';",
      "import type { D } from '../types.js';",
      "import { type E } from './inline-type.js';",
      "import * as f from 'node:fs';",
      "export type { G } from './re-exported-type.js';",
      "export * from './re-exported.js';",
      "import './side-effect.js';",
      "const h = await import('./lazy.js');",
      "let i: import('./type-position.js').I;",
      "// import { j } from './commented.js';",
      " * import { k } from './in-jsdoc.js';",
    ].join('\n');
    expect(importsIn(text)).toEqual([
      { specifier: './multi-line.js', typeOnly: false },
      { specifier: '../types.js', typeOnly: true },
      { specifier: './inline-type.js', typeOnly: false },
      { specifier: 'node:fs', typeOnly: false },
      { specifier: './re-exported-type.js', typeOnly: true },
      { specifier: './re-exported.js', typeOnly: false },
      { specifier: './side-effect.js', typeOnly: false },
      { specifier: './lazy.js', typeOnly: false },
      { specifier: './type-position.js', typeOnly: false },
    ]);
  });

  it('resolves relative .js specifiers to the .ts files of src/ and leaves packages out', () => {
    expect(resolveSpecifier('orders/batch.ts', '../context.js')).toBe('context.ts');
    expect(resolveSpecifier('main.ts', './orders/draft.js')).toBe('orders/draft.ts');
    expect(resolveSpecifier('main.ts', 'commander')).toBe(undefined);
    expect(resolveSpecifier('main.ts', './no-such-module.js')).toBe(undefined);
  });

  it('reads the whole source tree', () => {
    // A broken file list or import pattern would make the rules below pass on nothing.
    expect(files).toContain('main.ts');
    expect(files).toContain('context.ts');
    const edges = [...importGraph().values()].flatMap((targets) => [...targets.values()]);
    expect(edges.filter((typeOnly) => !typeOnly).length).toBeGreaterThan(files.length / 2);
    expect(edges.filter((typeOnly) => typeOnly).length).toBeGreaterThan(0);
  });

  it('lists each cycle once, as a chain, with its type-only links', () => {
    const graph: Graph = new Map([
      ['a.ts', new Map([['b.ts', false]])],
      [
        'b.ts',
        new Map([
          ['a.ts', true],
          ['c.ts', false],
        ]),
      ],
      [
        'c.ts',
        new Map([
          ['a.ts', false],
          ['d.ts', false],
        ]),
      ],
      ['d.ts', new Map([['d.ts', true]])],
      ['e.ts', new Map([['a.ts', false]])],
    ]);
    expect(importCycles(graph)).toEqual([
      'a.ts → b.ts → a.ts   (type-only: b.ts → a.ts)',
      'a.ts → b.ts → c.ts → a.ts   (every import loads at run time)',
      'd.ts → d.ts   (type-only: d.ts → d.ts)',
    ]);
  });
});

/**
 * The rooms of src/ (a folder, or a module at its root), lowest first. A module imports from rooms
 * below its own and from its own room only: not from a higher room, nor from another room of its
 * row. Type-only imports count (a type is knowledge of the room it comes from), except the context's
 * type, which every room is handed.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['types', 'version.ts', 'formats.ts', 'errors.ts', 'variables.ts'],
  // The service's contract, and the values flags and settings share.
  ['contract', 'values.ts'],
  // What talks to the outside: a person (terminal), the service (api), the disk (store); the
  // sandbox, a server of its own built on the contract.
  ['terminal', 'api', 'store', 'sandbox'],
  // The command lines hints give, built from a target and a profile's flags.
  ['command-line.ts'],
  ['context.ts'],
  ['session'],
  ['orders', 'migrate', 'completion'],
  // The order ledger: what payorder created, kept for order find; it reads files as batches do.
  ['ledger'],
  ['output'],
  // The command line's shared flags and inputs, then the commands and the program that declares them.
  ['cli'],
  ['commands'],
  ['main.ts'],
  // The single executable's entry, which starts main.
  ['sea.ts'],
];

const roomOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : file);
const rankOf = (file: string) => LAYERS.findIndex((rooms) => rooms.includes(roomOf(file)));

/** Every import that goes up the layers or sideways to another room of the same row, as "from → to". */
function upwardImports(graph: Graph): string[] {
  return [...graph].flatMap(([from, targets]) =>
    [...targets]
      .filter(([to, typeOnly]) => {
        if (roomOf(to) === roomOf(from) || (to === 'context.ts' && typeOnly)) return false;
        return rankOf(to) >= rankOf(from);
      })
      .map(([to]) => `${from} → ${to}`),
  );
}

describe('architecture', () => {
  it('places every room of src/ in a layer', () => {
    expect(files.filter((file) => rankOf(file) < 0)).toEqual([]);
  });

  it('imports only from lower rooms (data flows down), type-only imports included', () => {
    expect(upwardImports(importGraph())).toEqual([]);
  });

  it('tells an import up or sideways from one down', () => {
    const graph: Graph = new Map([
      ['orders/batch.ts', new Map([['output/messages.ts', true]])],
      ['store/profile-schema.ts', new Map([['api/http.ts', false]])],
      [
        'output/render.ts',
        new Map([
          ['orders/batch.ts', true],
          ['context.ts', true],
        ]),
      ],
      ['terminal/messages.ts', new Map([['context.ts', true]])],
      ['session/session.ts', new Map([['context.ts', false]])],
    ]);
    expect(upwardImports(graph)).toEqual([
      'orders/batch.ts → output/messages.ts',
      'store/profile-schema.ts → api/http.ts',
    ]);
  });

  it('has no import cycle among the modules of src/, type-only imports included', () => {
    expect(importCycles(importGraph())).toEqual([]);
  });

  it('reads the environment, the standard streams and the clock only in the entry point and the context', () => {
    // The sandbox is a server of its own: its clock module is the one place it reads real time.
    const allowed = new Set(['main.ts', 'context.ts', 'variables.ts', 'sandbox/clock.ts']);
    const reads =
      /\bprocess\s*(?:\.\s*(?:env|stdout|stderr)\b|\[\s*['"](?:env|stdout|stderr)['"])|\{[^}]*\b(?:env|stdout|stderr)\b[^}]*\}\s*=\s*process\b|\bDate\s*\.\s*now\s*\(/g;
    const violations = files
      .filter((file) => !allowed.has(file))
      .flatMap((file) =>
        source(file)
          .split('\n')
          .flatMap((line, i) => [...line.matchAll(reads)].map(([match]) => `${file}:${i + 1}: ${match}`)),
      );
    expect(violations).toEqual([]);
  });

  it('starting payorder loads no command run module and no HTTP client (those load on an action)', () => {
    // Every command is declared when payorder starts, even for --help: a static import of a run
    // module or of the API layer in a declaration puts ky (and Node's fetch) on every start-up.
    const loaded = new Set<string>();
    const visit = (file: string) => {
      for (const target of loadedWith(file)) {
        if (loaded.has(target)) continue;
        loaded.add(target);
        visit(target);
      }
    };
    visit('main.ts');
    expect(loaded.has('commands/program.ts'), 'the program is declared at start-up').toBe(true);
    expect([...loaded].filter((file) => /\.run\.ts$/.test(file) || file.startsWith('api/'))).toEqual([]);
  });

  it('the order ledger loads only when used, and node:sqlite only through ledger/sqlite.ts', () => {
    // order get and order create ask whether to keep it (ledger/choice.ts); the rest loads when a
    // lookup has its answer or an order is about to be sent.
    for (const start of ['main.ts', 'commands/order/get.run.ts', 'commands/order/create.run.ts']) {
      const loaded = new Set<string>();
      const visit = (file: string) => {
        for (const target of loadedWith(file)) {
          if (loaded.has(target)) continue;
          loaded.add(target);
          visit(target);
        }
      };
      visit(start);
      expect(
        [...loaded].filter((file) => file.startsWith('ledger/')),
        start,
      ).toEqual(start === 'main.ts' ? [] : ['ledger/choice.ts']);
    }
    const sqlite = files.filter((file) =>
      importsIn(readFileSync(join(SRC, file), 'utf8')).some(
        ({ specifier, typeOnly }) => specifier === 'node:sqlite' && !typeOnly,
      ),
    );
    expect(sqlite).toEqual(['ledger/sqlite.ts']);
  });
});

/** The src/ files that loading `file` loads: its static imports that are not type-only (import('…') waits for its call). */
function loadedWith(file: string): Set<string> {
  const code = source(file);
  const specifiers = [
    ...[...code.matchAll(STATIC)]
      .filter(([, clause]) => !/^\s*type\s/.test(clause!))
      .map(([, , specifier]) => specifier!),
    ...[...code.matchAll(BARE)].map(([, specifier]) => specifier!),
  ];
  return new Set(
    specifiers
      .map((specifier) => resolveSpecifier(file, specifier))
      .filter((target): target is string => target !== undefined),
  );
}
