/**
 * Starts the CLI bundle (dist/cli.cjs) with a V8 code cache of its own: the bytecode of every function
 * a command compiled the last time it ran. Node's compile cache keeps only what V8 compiles as it
 * loads a module, and V8 compiles nearly all of a function body the first time it is called: the
 * command-line parser, the schemas, ky and the request path were compiled again on every run. A
 * cache V8 makes after a run holds those as well.
 *
 * - **Where:** payorder's cache folder, `$XDG_CACHE_HOME/payorder` (usually `~/.cache/payorder`),
 *   `~/Library/Caches/payorder` on macOS, `%LOCALAPPDATA%\payorder\Cache` on Windows: one file per
 *   command, per build of the bundle and per Node (its version, platform and flags). V8 reads the
 *   whole of a cache before a run, so each command has only what it uses.
 * - **When it is written:** at the end of a command's first run, or of a run whose cache V8 refused.
 *   A first run starts from the overview's cache (`payorder --help`), which holds the start-up that
 *   every command shares. Any other run only reads.
 * - **Trust:** the file is code. It is read only from a folder of this user's that no one else can
 *   write to, only when it is this user's, a regular file and written by no one else, and it is
 *   written `0600` in a `0700` folder, whole or not at all (a temporary file renamed into place).
 *   V8 itself refuses a cache made by another V8, with other flags or for another source.
 * - **Never in the way:** a folder that cannot be made or written, a file that cannot be read or
 *   that V8 refuses, all leave the run as it is without a cache. NODE_DISABLE_COMPILE_CACHE (Node's
 *   own switch) turns it off.
 *
 * Node's built-in modules are taken with process.getBuiltinModule: an ESM import of one builds a
 * module facade for it, a cost paid before every command.
 */
import type { Stats } from 'node:fs';
import { resetHeapSettings } from './heap-settings.js';

const fs = process.getBuiltinModule('node:fs');
const { createRequire } = process.getBuiltinModule('node:module');
const { homedir } = process.getBuiltinModule('node:os');
const { dirname, join } = process.getBuiltinModule('node:path');
const { Script } = process.getBuiltinModule('node:vm');

/** What the CLI bundle exports (src/main.ts). */
export interface Cli {
  main(argv: string[]): Promise<number>;
}

/** The first bytes of a cache file: this marker, then the length of its command's name and the name. */
const MAGIC = 'payorder-code-cache 2\n';
/** Cache files kept in the folder: when there are more, the least recently written go. */
const MAX_FILES = 32;

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
 * The command a run's cache entry is for: its first words (at most two, before any option), which
 * is what decides the code it runs. `order get 1f2e… --json` → "order get"; `--help` → "".
 */
export function commandOf(argv: readonly string[]): string {
  const words: string[] = [];
  for (const arg of argv.slice(2)) {
    if (!/^[a-z][a-z-]{0,30}$/.test(arg) || words.length === 2) break;
    words.push(arg);
  }
  return words.join(' ');
}

/** FNV-1a: a short, stable name for the Node and the flags a cache was made with (not a secret). */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * A cache file's name: the bundle's build, the Node version and what else V8 checks a cache against
 * (the platform, the flags), and the command.
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

/** A cache file's parts: the command whose run made it, and V8's data. */
export interface CacheFile {
  command: string;
  data: Buffer;
}

export function encodeCache({ command, data }: CacheFile): Buffer {
  const name = Buffer.from(command, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(name.length);
  return Buffer.concat([Buffer.from(MAGIC, 'latin1'), length, name, data]);
}

/** The parts of a cache file; undefined for anything else. */
export function decodeCache(bytes: Buffer): CacheFile | undefined {
  if (bytes.length < MAGIC.length + 4 || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC)
    return undefined;
  const start = MAGIC.length + 4;
  const end = start + bytes.readUInt32LE(MAGIC.length);
  if (end > bytes.length) return undefined;
  return { command: bytes.toString('utf8', start, end), data: bytes.subarray(end) };
}

/** Where this run's cache files are, if caching is possible here. */
interface Place {
  folder: string;
  /** The file of a command in this folder, for this build and this Node. */
  fileOf(command: string): string;
}

function placeFor(source: string, proc: NodeJS.Process): Place | undefined {
  if (proc.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const build = BUILD_LINE.exec(source.slice(-64))?.[1];
  const folder = cacheFolder(proc.env, proc.platform, homedir());
  if (build === undefined || folder === undefined) return undefined;
  return { folder, fileOf: (command) => join(folder, cacheFileName(build, proc, command)) };
}

/** The cache of `command` in `place`, when the folder and the file can be trusted; undefined otherwise. */
function readCache(place: Place, command: string, uid: number | undefined): CacheFile | undefined {
  let fd: number | undefined;
  try {
    if (!isPrivate(fs.lstatSync(place.folder), uid)) return undefined;
    fd = fs.openSync(place.fileOf(command), fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const stats = fs.fstatSync(fd);
    if (!stats.isFile() || !isPrivate(stats, uid)) return undefined;
    const cache = decodeCache(fs.readFileSync(fd));
    // Two commands whose names share a hash: each is the other's miss.
    return cache?.command === command ? cache : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Writes `cache` to its command's file, whole or not at all, and keeps the folder to MAX_FILES files. */
function writeCache(place: Place, cache: CacheFile, uid: number | undefined): void {
  const { folder } = place;
  const file = place.fileOf(cache.command);
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    if (!isPrivate(fs.lstatSync(folder), uid)) return;
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, encodeCache(cache), { mode: 0o600, flag: 'wx' });
    fs.renameSync(temporary, file);
    const others = fs
      .readdirSync(folder)
      .filter((name) => name.startsWith('cli-') && name.endsWith('.cache'))
      .map((name) => join(folder, name))
      .filter((path) => path !== file)
      .map((path) => ({ path, written: fs.statSync(path).mtimeMs }))
      .sort((a, b) => b.written - a.written);
    for (const { path } of others.slice(MAX_FILES - 1)) fs.rmSync(path, { force: true });
  } catch {
    // No cache this time: the next run compiles as this one did.
  }
}

/**
 * Loads the CLI bundle at `bundle` (a CommonJS file) with its code cache, and arranges for the cache
 * to be written when the process ends if this run added to it.
 */
export function loadCli(bundle: string, argv: readonly string[], proc: NodeJS.Process = process): Cli {
  // The build keeps the bundle ASCII (esbuild escapes the rest), so latin1 reads it as it is, faster.
  const source = fs.readFileSync(bundle, 'latin1');
  const place = placeFor(source, proc);
  const uid = proc.getuid?.();
  const command = commandOf(argv);
  const own = place && readCache(place, command, uid);
  // A command not cached yet starts from the overview's cache (`payorder` alone, --help): the
  // start-up every command shares, already compiled. What it compiles more goes in its own file.
  const start = own ?? (place && command !== '' ? readCache(place, '', uid) : undefined);
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    ...(start ? { cachedData: start.data } : {}),
  });
  if (place && !(own && !script.cachedDataRejected))
    proc.once('exit', () => {
      // V8 puts a hash of its flags in the cache; a batch or the sandbox changed two of them.
      resetHeapSettings(proc);
      writeCache(place, { command, data: script.createCachedData() }, uid);
    });
  const module = { exports: {} as Cli };
  const run = script.runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: { exports: Cli },
    filename: string,
    dirname: string,
  ) => void;
  run(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return module.exports;
}
