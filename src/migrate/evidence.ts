/**
 * Whether a file talks to the payment order service: migrate-check checks only the files that do. A
 * shop has its own /checkout routes, OAuth endpoints, order numbers, currencies, decimal amounts and
 * PENDING states, so a generic word proves nothing; only marks that no other API shares do. A file
 * is tied to the service when it carries one of them, or when a file of its folder that carries one
 * uses it or is used by it (a client split into files: the client, its models, its status handling,
 * its config). Bodies named on the command line (or piped in) are the service's: they were handed
 * over to be checked; source and configuration are judged by their marks however they are given,
 * so a list of changed files can be checked as a gate.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, extname } from 'node:path';

/** The spec's own names, spelled any way (client_secret_id, clientSecretId, ClientSecretId). */
const OWN_NAMES = /client[_-]?secret[_-]?id|callback[_-]?(?:success|fail)|checkout[_-]?link/i;
/** The version prefixes on the service's operations: /1/auth/token, /v2/api/checkout, /1/order/. */
const VERSIONED_PATHS = /\/(?:1|v2\/api)\/(?:auth\/token|checkout|orders?\/)/;
/**
 * An auth or checkout address that ends in a version prefix: a key named for it holding an absolute
 * or variable-based address (`AUTH_URL=${AUTH_BASE}/1`; ERB and Ruby's `#{…}` whole, quotes and
 * spaces inside: `<%= ENV['AUTH_BASE'] %>/1`), or an address whose host names it.
 */
const VERSIONED_ADDRESSES = [
  /(?:auth|checkout)[\w.-]*["']?\s*(?:[:=]|=>)\s*["']?(?:https?:\/\/|\$\{?\w|<%=[^%]*%>|#\{[^}]*\}|%\()[^\s"']*\/(?:1|v2\/api)\/?(?:["'\s]|$)/im,
  /https?:\/\/[^\s"'/]*(?:auth|checkout)[^\s"'/]*(?:\/[^\s"']*)?\/(?:1|v2\/api)\/?(?:["'`\s]|$)/im,
];
/** Configuration named for the service's address: PAYORDER_AUTH_URL, payorder_api_prefix. */
const CONFIGURED =
  /(?<![a-z])pay[_-]?orders?[_-]?(?:auth|checkout|api)?[_-]?(?:url|uri|host|base|endpoint|prefix|address)/i;
/** The token request of the spec: its address with its v1 field names. */
const TOKEN_REQUEST = [/\/auth\/token(?![\w/-])/, /\buser_name\b/, /\bclient_id\b/];

/**
 * Something every mark spells out (a name of the spec's, a version prefix, a payorder setting, the
 * token address): one pass over a text without any of them tells it has no mark.
 */
const ANY_MARK = new RegExp(`${OWN_NAMES.source}|\\/1|\\/v2\\/api|pay[_-]?order|\\/auth\\/token`, 'i');

/** Whether a file's text carries a mark of the service. */
export function hasServiceMark(text: string): boolean {
  // Every file of a repository is asked, and most have no mark: one pass rules most of them out.
  if (!ANY_MARK.test(text)) return false;
  // A plain substring search then skips the patterns that cannot match.
  const versioned = text.includes('/1') || text.includes('/v2/api');
  return (
    OWN_NAMES.test(text) ||
    (versioned &&
      (VERSIONED_PATHS.test(text) || VERSIONED_ADDRESSES.some((pattern) => pattern.test(text)))) ||
    CONFIGURED.test(text) ||
    (text.includes('/auth/token') && TOKEN_REQUEST.every((pattern) => pattern.test(text)))
  );
}

/** A file's text read again (only files beside a marked one are); nothing when it cannot be read. */
function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Whether `text` uses the file `other` of its folder: a module path to it (`'./client'`,
 * `'/config.php'`, `.client import`, `import payorder_client`), or a class named as the file is
 * (`PayOrderClient` for PayOrderClient.java), as code of the same package uses it.
 */
export function references(text: string, other: string): boolean {
  const stem = basename(other, extname(other));
  // Every pattern below spells the stem out: a text without it cannot match, and most texts of a
  // folder never name most of their neighbours.
  if (stem.length < 2 || !text.includes(stem)) return false;
  const { path, name } = patternsFor(stem);
  return path.test(text) || (name?.test(text) ?? false);
}

/** The patterns of references() for one stem, compiled once: a folder's files are asked about each other. */
const referencePatterns = new Map<string, { path: RegExp; name?: RegExp }>();

function patternsFor(stem: string): { path: RegExp; name?: RegExp } {
  let patterns = referencePatterns.get(stem);
  if (!patterns) {
    const escaped = stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    patterns = {
      path: new RegExp(
        `[./'"\\\\]${escaped}(?:\\.\\w{1,5})?(?=['"]|\\s+import\\b)|\\bimport\\s+${escaped}\\b`,
      ),
      ...(/^[A-Z]/.test(stem) ? { name: new RegExp(`\\b${escaped}\\b`) } : {}),
    };
    referencePatterns.set(stem, patterns);
  }
  return patterns;
}

/** Files by folder: adds one. */
function addTo(byFolder: Map<string, string[]>, file: string): void {
  const list = byFolder.get(dirname(file));
  if (list) list.push(file);
  else byFolder.set(dirname(file), [file]);
}

/** The files of one run that talk to the service: by their own marks, or by their marked neighbours'. */
export class ServiceEvidence {
  /** Marked files, by folder. */
  private readonly marked = new Map<string, string[]>();
  private readonly named = new Set<string>();
  private readonly known = new Map<string, boolean>();
  /** Every file read, by folder. */
  private readonly folders = new Map<string, string[]>();

  /** Notes one file read; `given` for bodies named on the command line or piped in. */
  note(file: string, text: string, given: boolean): void {
    if (given) this.named.add(file);
    addTo(this.folders, file);
    if (!hasServiceMark(text)) return;
    addTo(this.marked, file);
    this.known.set(file, true);
  }

  /** Whether the file is tied by itself, marked or given (known as soon as it is noted). */
  ownsTie(file: string): boolean {
    return this.named.has(file) || this.known.get(file) === true;
  }

  /**
   * Whether a file talks to the service: given as bodies, marked, or beside a marked file that it uses or that
   * uses it (`require('./payorder')`, `from .client import`, a class of the same package by its
   * name, the config file the client requires). A Go package is one folder: any marked file ties it.
   */
  tied(file: string): boolean {
    if (this.named.has(file)) return true;
    let tied = this.known.get(file);
    if (tied === undefined) {
      const neighbours = this.marked.get(dirname(file)) ?? [];
      tied = neighbours.length > 0 && (extname(file) === '.go' || this.usesOrUsed(file, neighbours));
      this.known.set(file, tied);
    }
    return tied;
  }

  /** The files of its folder that a file uses (its config, its models). */
  used(file: string): string[] {
    const text = this.textOf(file);
    return (this.folders.get(dirname(file)) ?? []).filter(
      (other) => other !== file && references(text, other),
    );
  }

  private usesOrUsed(file: string, neighbours: string[]): boolean {
    const text = this.textOf(file);
    return neighbours.some((marked) => references(text, marked) || references(this.textOf(marked), file));
  }

  /** The texts of one folder read again, kept while its files are asked about (files come folder by folder). */
  private folderTexts = { folder: '', texts: new Map<string, string>() };

  private textOf(file: string): string {
    const folder = dirname(file);
    if (this.folderTexts.folder !== folder) this.folderTexts = { folder, texts: new Map() };
    let text = this.folderTexts.texts.get(file);
    if (text === undefined) {
      text = readOrEmpty(file);
      this.folderTexts.texts.set(file, text);
    }
    return text;
  }

  /** How many of the files read are tied to the service. */
  count(files: Iterable<string>): number {
    let tied = 0;
    for (const file of files) if (this.tied(file)) tied++;
    return tied;
  }
}
