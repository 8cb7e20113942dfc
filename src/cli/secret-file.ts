/**
 * The file `--client-secret-file` names, read for its secret. It is opened through any links
 * (container secrets are links, e.g. Kubernetes' ..data) and judged by the file that was opened, so
 * what is checked is what is read: refused when others may change the secret, a warning when others
 * may read it (store/private-path.ts).
 */
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import type { Context } from '../context.js';
import { CliError, usageError } from '../errors.js';
import { secretFileVerdict } from '../store/private-path.js';
import { warn } from '../terminal/messages.js';

const FIELD = '--client-secret-file';

const unreadable = (path: string, error: unknown) =>
  usageError(`${FIELD}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, {
    field: FIELD,
  });

/** The whole text of the secret file at `path`, once it has passed the checks. */
export async function readSecretFile(ctx: Context, path: string): Promise<string> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw unreadable(path, error);
  }
  try {
    const judged = secretFileVerdict(FIELD, path, await handle.stat());
    if (judged.verdict === 'refused') throw judged.error;
    if (judged.verdict === 'exposed') warn(ctx, judged.warning);
    return await handle.readFile('utf8');
  } catch (error) {
    throw error instanceof CliError ? error : unreadable(path, error);
  } finally {
    await handle.close();
  }
}
