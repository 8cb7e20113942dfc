/**
 * Starts the CLI bundle (dist/cli.cjs) with a V8 code cache of its own: the bytecode of every function
 * a command compiled the last time it ran. Node's compile cache keeps only what V8 compiles as it
 * loads a module, and V8 compiles nearly all of a function body the first time it is called: the
 * command-line parser, the schemas, ky and the request path were compiled again on every run. A
 * cache V8 makes after a run holds those as well.
 *
 * - **Where:** payorder's cache folder, `$XDG_CACHE_HOME/payorder` (usually `~/.cache/payorder`),
 *   `~/Library/Caches/payorder` on macOS, `%LOCALAPPDATA%\payorder\Cache` on Windows: one file per
 *   command (a name of the command tree, never a word of the user's), per build of the bundle and
 *   per Node (its version, architecture and flags). V8 reads the whole of a cache before a run, so
 *   each command has only what it uses.
 * - **When it is written:** at the end of a command's first run, or of a run whose cache V8 refused.
 *   A first run starts from the overview's cache (`payorder --help`), which holds the start-up that
 *   every command shares. Any other run only reads.
 * - **Which source:** V8 checks a cache against the length of the source only, not its text. A cache
 *   names the build it was made for (the hash the build writes at the end of the bundle) and records
 *   the bundle file's size, time and inode: a bundle changed in place is never given an old cache.
 * - **Trust:** the file is code. It is read only from a folder of this user's that no one else can
 *   write to, only when it is this user's, a regular file (not a link) and written by no one else.
 *   It is written `0600` in a `0700` folder, whole or not at all (a temporary file renamed into
 *   place), and folders are made only inside one of this user's (not in a home under sudo).
 * - **Never in the way:** a folder that cannot be made or written, a file that cannot be read or
 *   that V8 refuses, all leave the run as it is without a cache. NODE_DISABLE_COMPILE_CACHE (Node's
 *   own switch) turns it off.
 *
 * Node's built-in modules are taken with process.getBuiltinModule: an ESM import of one builds a
 * module facade for it, a cost paid before every command.
 */
import type { Stats } from 'node:fs';
import { compilerTuned, resetHeapSettings } from './heap-settings.js';

const fs = process.getBuiltinModule('node:fs');
const { createRequire } = process.getBuiltinModule('node:module');
const { homedir } = process.getBuiltinModule('node:os');
const { dirname, join } = process.getBuiltinModule('node:path');
const { Script } = process.getBuiltinModule('node:vm');

/** What the CLI bundle exports (src/main.ts). */
export interface Cli {
  main(argv: string[], loader?: Loader): Promise<number>;
  /** The command that ran, by its names in the command tree; undefined when none was parsed. */
  ranCommand(): string | undefined;
}

/** What the loader gives the CLI's run. */
export interface Loader {
  /**
   * Called when a command's long work begins (a batch's first line, the sandbox listening): its
   * cache is written then, with the start-up compiled, rather than when the process ends. V8 drops
   * the bytecode of functions a long run has not called for a while, and a cache made after hours
   * of serving lacked most of the start-up (a sandbox took 150 ms to answer against 95 ms).
   */
  startUpDone(): void;
}

/** The first bytes of a cache file: this marker, then the length of its header (JSON) and the header. */
const MAGIC = 'payorder-code-cache 3\n';
/** Cache files kept in the folder: when there are more, the least recently written go. */
const MAX_FILES = 32;
/** A temporary file older than this was left by a run that died while writing it. */
const STALE_TEMPORARY_MS = 10 * 60_000;

/**
 * The last line of dist/cli.cjs, written by the build: `//# build=` and a hash of the rest of the
 * file. It names the cache file, so a cache made for one build is never given to another.
 */
const BUILD_LINE = /\/\/# build=([0-9a-f]{16})\s*$/;

/** payorder's cache folder for `platform`, from the environment; undefined when there is no home. */
export function cacheFolder(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  home: string,
): string | undefined {
  if (platform === 'win32') return env.LOCALAPPDATA ? join(env.LOCALAPPDATA, 'payorder', 'Cache') : undefined;
  if (!home) return undefined;
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'payorder');
  const xdg = env.XDG_CACHE_HOME;
  // The XDG specification: a relative path is invalid and ignored.
  return join(xdg?.startsWith('/') ? xdg : join(home, '.cache'), 'payorder');
}

/**
 * The caches a run looks for, best first: the commands its first words may name (at most two words,
 * before any option), then the overview's. `order get 1f2e… --json` → "order get", "order", "".
 * Only a command that ran has a file (named by the command tree, src/main.ts ranCommand): a word
 * that names none finds nothing.
 */
export function candidateCommands(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (const arg of argv.slice(2)) {
    if (!/^[a-z][a-z-]{0,30}$/.test(arg) || words.length === 2) break;
    words.push(arg);
  }
  return words.map((_, i) => words.slice(0, words.length - i).join(' ')).concat('');
}

/** FNV-1a: a short, stable name for the Node, the flags and the command of a cache (not a secret). */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * A cache file's name: the bundle's build, the Node version and what else V8 checks a cache against
 * (the architecture, the flags), and the command.
 */
export function cacheFileName(
  build: string,
  proc: Pick<NodeJS.Process, 'version' | 'arch' | 'execArgv' | 'env'>,
  command: string,
): string {
  const node = `${proc.version} ${proc.arch} ${proc.execArgv.join(' ')} ${proc.env.NODE_OPTIONS ?? ''}`;
  return `cli-${build}-node${proc.version.slice(1)}-${shortHash(node)}-${shortHash(command)}.cache`;
}

/** Whether `stats` are this user's and nobody else may write there (always true where there are no owners). */
export function isPrivate(stats: Pick<Stats, 'uid' | 'mode'>, uid: number | undefined): boolean {
  if (uid === undefined) return true;
  return stats.uid === uid && (stats.mode & 0o022) === 0;
}

/** A cache file's parts: the command whose run made it, the bundle file it was made from, V8's data. */
export interface CacheFile {
  command: string;
  /** The bundle file's size, modification time and inode (sourceStamp). */
  source: string;
  data: Buffer;
}

export function encodeCache({ command, source, data }: CacheFile): Buffer {
  const header = Buffer.from(JSON.stringify({ command, source }), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  return Buffer.concat([Buffer.from(MAGIC, 'latin1'), length, header, data]);
}

/** The parts of a cache file; undefined for anything else. */
export function decodeCache(bytes: Buffer): CacheFile | undefined {
  if (bytes.length < MAGIC.length + 4 || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC)
    return undefined;
  const start = MAGIC.length + 4;
  const end = start + bytes.readUInt32LE(MAGIC.length);
  if (end > bytes.length) return undefined;
  try {
    const { command, source } = JSON.parse(bytes.toString('utf8', start, end)) as Partial<CacheFile>;
    if (typeof command !== 'string' || typeof source !== 'string') return undefined;
    return { command, source, data: bytes.subarray(end) };
  } catch {
    return undefined;
  }
}

/** What tells one bundle file from another of the same length: its size, modification time and inode. */
export const sourceStamp = (stats: Pick<Stats, 'size' | 'mtimeMs' | 'ino'>) =>
  `${stats.size}:${stats.mtimeMs}:${stats.ino}`;

/** Where this run's cache files are, if caching is possible here. */
interface Place {
  folder: string;
  /** The file of a command in this folder, for this build and this Node. */
  fileOf(command: string): string;
  /** The bundle's sourceStamp. */
  source: string;
  uid: number | undefined;
}

function placeFor(source: string, stats: Stats, proc: NodeJS.Process): Place | undefined {
  if (proc.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const build = BUILD_LINE.exec(source.slice(-64))?.[1];
  const folder = cacheFolder(proc.env, proc.platform, homedir());
  if (build === undefined || folder === undefined) return undefined;
  return {
    folder,
    fileOf: (command) => join(folder, cacheFileName(build, proc, command)),
    source: sourceStamp(stats),
    uid: proc.getuid?.(),
  };
}

/** Whether the cache folder of `place` exists and no one else may write to it. */
function folderTrusted(place: Place): boolean {
  try {
    return isPrivate(fs.lstatSync(place.folder), place.uid);
  } catch {
    return false;
  }
}

/** The cache of `command` in `place` (a trusted folder), when the file can be trusted and is for this bundle file. */
function readCache(place: Place, command: string): CacheFile | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(place.fileOf(command), fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const stats = fs.fstatSync(fd);
    if (!stats.isFile() || !isPrivate(stats, place.uid)) return undefined;
    const cache = decodeCache(fs.readFileSync(fd));
    // Two commands whose names share a hash are each the other's miss.
    return cache?.command === command && cache.source === place.source ? cache : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Makes `folder` (0700), only where its nearest existing parent is this user's: run under sudo with
 * the user's HOME, payorder makes no folder of root's there. Whether the folder can then be used.
 */
function makeFolder(folder: string, uid: number | undefined): boolean {
  let existing = folder;
  for (;;) {
    try {
      const stats = fs.lstatSync(existing);
      if (existing === folder) return isPrivate(stats, uid);
      if (uid !== undefined && stats.uid !== uid) return false;
      break;
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return false;
      existing = parent;
    }
  }
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  return isPrivate(fs.lstatSync(folder), uid);
}

/** Writes `cache` to its command's file, whole or not at all, and keeps the folder to MAX_FILES files. */
function writeCache(place: Place, cache: CacheFile): void {
  const { folder } = place;
  const file = place.fileOf(cache.command);
  // Another process may write the same command's file: each writes a file of its own, then renames it.
  const temporary = `${file}.${process.pid}-${Math.random().toString(16).slice(2, 10)}.tmp`;
  try {
    if (!makeFolder(folder, place.uid)) return;
    fs.writeFileSync(temporary, encodeCache(cache), { mode: 0o600, flag: 'wx' });
    fs.renameSync(temporary, file);
    prune(folder, file);
  } catch {
    // No cache this time: the next run compiles as this one did.
    fs.rmSync(temporary, { force: true });
  }
}

/** Keeps the folder to MAX_FILES cache files (the least recently written go) and no stale temporary file. */
function prune(folder: string, kept: string): void {
  // The file just written says when now is (the file system's clock, which the others' times are by).
  const now = fs.statSync(kept).mtimeMs;
  const files = fs
    .readdirSync(folder)
    .filter((name) => name.startsWith('cli-'))
    .map((name) => join(folder, name))
    .filter((path) => path !== kept)
    .map((path) => ({ path, written: fs.statSync(path).mtimeMs }));
  const caches = files.filter(({ path }) => path.endsWith('.cache')).sort((a, b) => b.written - a.written);
  const stale = files.filter(
    ({ path, written }) => path.endsWith('.tmp') && now - written > STALE_TEMPORARY_MS,
  );
  for (const { path } of [...caches.slice(MAX_FILES - 1), ...stale]) fs.rmSync(path, { force: true });
}

/**
 * Loads the CLI bundle at `bundle` (a CommonJS file) with its code cache, and arranges for the cache
 * to be written if this run's command has none yet (or V8 refused it): when its long work begins
 * (Loader), else when the process ends.
 */
export function loadCli(
  bundle: string,
  argv: readonly string[],
  proc: NodeJS.Process = process,
): Pick<Cli, 'main'> {
  const fd = fs.openSync(bundle, 'r');
  let source: string;
  let stats: Stats;
  try {
    stats = fs.fstatSync(fd);
    // The build keeps the bundle ASCII (.ci/build.mjs markBuild): latin1 reads it as it is, into a
    // string of one byte a character, which V8 keeps for as long as the process runs.
    source = fs.readFileSync(fd, 'latin1');
  } finally {
    fs.closeSync(fd);
  }
  const place = placeFor(source, stats, proc);
  let start: CacheFile | undefined;
  for (const command of place && folderTrusted(place) ? candidateCommands(argv) : []) {
    start = readCache(place!, command);
    if (start) break;
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    ...(start ? { cachedData: start.data } : {}),
  });
  // Only the name is kept: the file's bytes (as big as the cache) are not held for the whole run.
  const started = start?.command;
  const module = { exports: {} as Cli };
  let written = false;
  const write = () => {
    if (!place || written) return;
    written = true;
    try {
      const command = module.exports.ranCommand?.();
      if (command === undefined || (started === command && !script.cachedDataRejected)) return;
      // V8 puts a hash of its flags in the cache: the heap's that a batch or the sandbox changed are
      // put back; the compiler's that a batch changed cannot be (src/heap-settings.ts).
      if (compilerTuned(proc)) return;
      resetHeapSettings(proc);
      writeCache(place, { command, source: place.source, data: script.createCachedData() });
    } catch {
      // No cache this time.
    }
  };
  proc.once('exit', write);
  const run = script.runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: { exports: Cli },
    filename: string,
    dirname: string,
  ) => void;
  run(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return { main: (args) => module.exports.main(args, { startUpDone: write }) };
}
