/**
 * `login --client-secret-file`: a file others may write, or that another user than root owns, is
 * refused before anything is sent; one others may read is used with a warning naming chmod 600;
 * links are followed and the file they lead to is what is judged; a pipe is not judged by its mode.
 */
import { chmodSync, chownSync, mkdirSync, type Stats, symlinkSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { secretFileVerdict } from '../../src/store/private-path.js';
import { SECRET, SHOP } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { journal } from '../helpers/sandbox.js';
import { IS_ROOT, NOBODY } from '../store/store-folder.js';

const e2e = useE2E();

/** A file holding the secret, with exactly `mode` whatever the umask. */
function secretFile(mode: number, name = 'secret.txt'): string {
  const path = join(e2e.dir, name);
  writeFileSync(path, `${SECRET}\n`);
  chmodSync(path, mode);
  return path;
}

const login = (path: string) =>
  e2e.run([
    'login',
    '--env',
    'sandbox',
    '--insecure-storage',
    '--username',
    SHOP.username,
    '--client-id',
    SHOP.clientId,
    '--client-secret-file',
    path,
  ]);

/** The login was refused with exit 2 and `line`, and nothing was sent or stored. */
async function expectRefused(path: string, line: string, hint: string) {
  const result = await login(path);
  expect(result).toEqual({ exitCode: 2, stdout: '', stderr: `error: ${line}\nhint: ${hint}\n` });
  expect(await journal(e2e.sb.url)).toEqual([]);
}

describe('--client-secret-file', () => {
  it('0600: used without a word', async () => {
    const result = await login(secretFile(0o600));
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('warning');
    expect(e2e.store().environments?.sandbox?.credentials).toEqual(SHOP);
  });

  it.each([
    ['0666', 'others'],
    ['0620', 'its group'],
    ['0602', 'others'],
  ])('mode %s, writable by %s: refused, exit 2, nothing sent', async (shown, by) => {
    const path = secretFile(Number.parseInt(shown, 8));
    await expectRefused(
      path,
      `--client-secret-file: refusing ${path}: it is writable by ${by} (mode ${shown}), who could change the secret`,
      `chmod 600 ${path}`,
    );
  });

  it.each([
    ['0644', 'others'],
    ['0640', 'its group'],
    ['0444', 'others'],
  ])('mode %s, readable by %s: used, with a warning naming chmod 600', async (shown, by) => {
    const path = secretFile(Number.parseInt(shown, 8));
    const result = await login(path);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr.split('\n')[0]).toBe(
      `warning: --client-secret-file ${path} is readable by ${by} (mode ${shown}); make it private: chmod 600 ${path}`,
    );
    expect(e2e.store().environments?.sandbox?.credentials).toEqual(SHOP);
  });

  it('a path the shell would split is quoted in the hint', async () => {
    const path = secretFile(0o666, "shop's secret.txt");
    await expectRefused(
      path,
      `--client-secret-file: refusing ${path}: it is writable by others (mode 0666), who could change the secret`,
      `chmod 600 '${path.replace("'", `'\\''`)}'`,
    );
  });

  it.skipIf(!IS_ROOT)('owned by another user than root: refused, exit 2, nothing sent', async () => {
    const path = secretFile(0o600);
    chownSync(path, NOBODY, NOBODY);
    await expectRefused(
      path,
      `--client-secret-file: refusing ${path}: it is owned by uid ${NOBODY}, neither by you (uid 0) nor by root, so its owner can change the secret`,
      'keep the secret in a file of your own, mode 600',
    );
  });

  it('owned by root, as mounted container secrets are: judged by its mode only', () => {
    const stats = { uid: 0, mode: 0o100444, isFile: () => true } as Stats;
    expect(secretFileVerdict('--client-secret-file', '/run/secrets/payorder', stats)).toEqual({
      verdict: 'exposed',
      warning:
        '--client-secret-file /run/secrets/payorder is readable by others (mode 0444); make it private: chmod 600 /run/secrets/payorder',
    });
  });

  it('links are followed, as in a mounted Kubernetes secret, and the file they lead to is judged', async () => {
    // secrets/payorder → ..data/payorder, ..data → ..2026_11_26 (what the kubelet writes)
    const mount = join(e2e.dir, 'secrets');
    mkdirSync(join(mount, '..2026_11_26'), { recursive: true });
    const target = join(mount, '..2026_11_26', 'payorder');
    writeFileSync(target, `${SECRET}\n`, { mode: 0o600 });
    chmodSync(target, 0o600);
    symlinkSync('..2026_11_26', join(mount, '..data'));
    symlinkSync(join('..data', 'payorder'), join(mount, 'payorder'));
    const link = join(mount, 'payorder');

    const used = await login(link);
    expect(used.exitCode, used.stderr).toBe(0);
    expect(used.stderr).not.toContain('warning');

    chmodSync(target, 0o666);
    const result = await login(link);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      `error: --client-secret-file: refusing ${link}: it is writable by others (mode 0666), who could change the secret`,
    );
    expect(await journal(e2e.sb.url, 'token')).toHaveLength(1);
  });

  it('a named pipe holds nothing at rest: read whatever its mode', async () => {
    const fifo = join(e2e.dir, 'secret.fifo');
    await execa('mkfifo', ['-m', '666', fifo]);
    const [result] = await Promise.all([login(fifo), writeFile(fifo, `${SECRET}\n`)]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('warning');
    expect(e2e.store().environments?.sandbox?.credentials).toEqual(SHOP);
  });
});
