/**
 * A journal decides what a batch sends and which links it prints: payorder uses one only when it is
 * safely the user's, as it does its store. A journal that others can write, that another user owns,
 * or that is a symbolic link is refused (exit 2, naming the path and the rule), and nothing is sent.
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useE2E } from '../../helpers/e2e.js';
import { call, journal } from '../../helpers/sandbox.js';

const e2e = useE2E();

const IS_ROOT = process.geteuid?.() === 0;
const NOBODY = 65534;
const ATTACKER = 'https://attacker.example/pay';

function oneCsv(): string {
  const file = join(e2e.dir, 'one.csv');
  writeFileSync(
    file,
    'amount,description,success,fail\n12.50,Invoice 42,https://shop.example/ok,https://shop.example/ko\n',
  );
  return file;
}

const batch = (file: string, ...args: string[]) =>
  e2e.run(['order', 'create', '--env', 'sandbox', '--input', file, '-o', 'ndjson', ...args]);

/** A journal of one created line whose payment link someone replaced with theirs. */
async function forgedJournal(): Promise<{ file: string; path: string }> {
  const file = oneCsv();
  const path = join(e2e.dir, 'it');
  expect((await batch(file, '--journal', path)).exitCode).toBe(0);
  const text = readFileSync(path, 'utf8');
  writeFileSync(path, text.replace(/"links":\{"checkout":"[^"]*"/, `"links":{"checkout":"${ATTACKER}"`));
  expect(readFileSync(path, 'utf8')).toContain(`"links":{"checkout":"${ATTACKER}"`);
  await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
  return { file, path };
}

/** What every refusal looks like: exit 2, one error line naming the path and the rule, nothing sent. */
async function expectRefused(result: { exitCode: number; stdout: string; stderr: string }, line: string) {
  expect(result.exitCode, result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).not.toContain(ATTACKER);
  expect(result.stderr).toContain(`error: ${line}\n`);
  expect(result.stderr).toMatch(/\nhint: [^\n]+\n$/);
  expect(await journal(e2e.sb.url, 'checkout')).toEqual([]);
}

describe('order create --input --journal: a journal payorder does not trust', () => {
  it('a journal others can write (0666), with a forged "created" record, is refused: no link of it is printed', async () => {
    await e2e.loginAfresh();
    const { file, path } = await forgedJournal();
    chmodSync(path, 0o666);
    const result = await batch(file, '--journal', path);
    await expectRefused(result, `refusing the journal ${path}: it is writable by others (mode 0666)`);
  });

  it('a group-writable journal is refused too', async () => {
    await e2e.loginAfresh();
    const { file, path } = await forgedJournal();
    chmodSync(path, 0o620);
    await expectRefused(
      await batch(file, '--journal', path),
      `refusing the journal ${path}: it is writable by its group (mode 0620)`,
    );
  });

  it.skipIf(!IS_ROOT)(
    `a journal another user owns is refused${IS_ROOT ? '' : ' (skipped: only root can give a file to another user)'}`,
    async () => {
      await e2e.loginAfresh();
      const { file, path } = await forgedJournal();
      chmodSync(path, 0o644);
      chownSync(path, NOBODY, NOBODY);
      await expectRefused(
        await batch(file, '--journal', path),
        `refusing the journal ${path}: it is owned by uid ${NOBODY}, not by you (uid 0)`,
      );
    },
  );

  it('a dangling symbolic link is refused, and nothing is created where it points', async () => {
    await e2e.loginAfresh();
    const path = join(e2e.dir, 'it');
    const target = join(e2e.dir, 'elsewhere.journal');
    symlinkSync(target, path);
    await expectRefused(
      await batch(oneCsv(), '--journal', path),
      `refusing the journal ${path}: it is a symbolic link, and payorder follows no link to its own files`,
    );
    expect(existsSync(target)).toBe(false);
  });

  it('a link to a journal of the user is refused too', async () => {
    await e2e.loginAfresh();
    const { file, path } = await forgedJournal();
    const link = join(e2e.dir, 'link');
    symlinkSync(path, link);
    await expectRefused(
      await batch(file, '--journal', link),
      `refusing the journal ${link}: it is a symbolic link, and payorder follows no link to its own files`,
    );
  });

  it('an automatic journal that others can write is refused, naming it', async () => {
    await e2e.loginAfresh();
    const file = oneCsv();
    expect((await batch(file)).exitCode).toBe(0);
    const folder = join(`${e2e.dir}.data`, 'batches');
    const [name] = readdirSync(folder);
    const path = join(folder, name!);
    chmodSync(path, 0o666);
    await call(e2e.sb.url, 'DELETE', '/_sandbox/journal');
    await expectRefused(
      await batch(file),
      `refusing the batch journal ${path}: it is writable by others (mode 0666)`,
    );
  });
});
