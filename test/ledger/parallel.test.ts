/**
 * The order ledger under parallel payorder processes: batches run at the same time by processes of
 * their own (the built binary) all record every order, wait for each other's writes (WAL and a busy
 * timeout) instead of failing, and say nothing of it on stderr but their summaries.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { batchCommand, orderLine, recordsOf } from '../helpers/batch.js';
import { BIN } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';

const e2e = useE2E();

const PROCESSES = 4;
const LINES = 40;

describe('the ledger and parallel batches', () => {
  it(`${PROCESSES} processes, ${LINES} lines each, at once: every order recorded once, every reference its own`, async () => {
    await e2e.loginAfresh();
    const files = Array.from({ length: PROCESSES }, (_, p) => {
      const file = join(e2e.dir, `batch-${p}.ndjson`);
      const lines = Array.from({ length: LINES }, (_, i) =>
        orderLine(i + 1, { external_reference: `P${p}-${i + 1}`, description: `process ${p} line ${i + 1}` }),
      );
      writeFileSync(file, `${lines.join('\n')}\n`);
      return file;
    });
    // Every process also tries one reference of process 0: exactly one of them may take it.
    const shared = join(e2e.dir, 'shared.ndjson');
    writeFileSync(shared, `${orderLine(1, { external_reference: 'SHARED-1' })}\n`);
    const runs = await Promise.all(
      [...files, shared, shared, shared].map((file) =>
        execa(
          process.execPath,
          [BIN, ...batchCommand(file, '-o', 'ndjson', '--concurrency', '8', '--again')],
          {
            env: e2e.env(),
            extendEnv: false,
            reject: false,
            timeout: 60_000,
          },
        ),
      ),
    );
    for (const run of runs.slice(0, PROCESSES)) {
      expect(run.exitCode, String(run.stderr)).toBe(0);
      expect(String(run.stderr)).toMatch(
        new RegExp(`^${LINES} lines in \\d+\\.\\d s: ${LINES} created, [^\\n]*$`),
      );
    }
    const sharedOutcomes = runs.slice(PROCESSES).map((run) => recordsOf(String(run.stdout))[0].outcome);
    expect(sharedOutcomes.sort()).toEqual(['created', 'failed', 'failed']);

    const db = new DatabaseSync(join(`${e2e.dir}.data`, 'ledger', 'orders.sqlite'), { readOnly: true });
    const rows = db
      .prepare('SELECT outcome, count(*) AS n, count(DISTINCT uuid) AS uuids FROM orders GROUP BY outcome')
      .all();
    db.close();
    expect(rows).toEqual([{ outcome: 'created', n: PROCESSES * LINES + 1, uuids: PROCESSES * LINES + 1 }]);
    expect((await e2e.orders()).length).toBe(PROCESSES * LINES + 1);
  });
});
