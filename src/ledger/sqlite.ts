/**
 * node:sqlite, loaded quietly. Node 22 announces the module with an ExperimentalWarning on stderr
 * the first time it is loaded; payorder keeps stderr for its own messages, so exactly that warning
 * is held back while the module loads. Any other warning, then or later, is printed as Node prints it.
 */
import type * as Sqlite from 'node:sqlite';

/** The text Node 22 gives the warning (lib/sqlite.js: emitExperimentalWarning('SQLite')). */
const SQLITE_WARNING = 'SQLite is an experimental feature';

/** Whether `warning` and the type it was emitted with are Node's announcement of node:sqlite. */
export function isSqliteWarning(warning: unknown, typeOrOptions: unknown): boolean {
  const type =
    typeof typeOrOptions === 'string'
      ? typeOrOptions
      : (typeOrOptions as { type?: string } | undefined)?.type;
  const name = warning instanceof Error ? warning.name : type;
  const text = warning instanceof Error ? warning.message : String(warning);
  return name === 'ExperimentalWarning' && text.startsWith(SQLITE_WARNING);
}

let loaded: Promise<typeof Sqlite> | undefined;

/** node:sqlite, with Node 22's warning of it held back; loaded once. */
export function loadSqlite(): Promise<typeof Sqlite> {
  loaded ??= (async () => {
    const emitWarning = process.emitWarning;
    process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
      if (isSqliteWarning(warning, rest[0])) return;
      return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
    } as typeof process.emitWarning;
    try {
      return await import('node:sqlite');
    } finally {
      process.emitWarning = emitWarning;
    }
  })();
  return loaded;
}
