/**
 * The local tier of migrate-check: public repositories that never talk to the payment order service
 * (shops, commerce platforms, other providers' SDKs, a large monorepo), listed with their commits in
 * real-repos.json. Each is checked whole with the built CLI; the bar is no error and no warning on
 * any of them. Prints errors, warnings, info, wall time and peak RSS per repository, and exits 1 when
 * one misses the bar. Not part of `npm test`: the repositories are large and not ours.
 *
 *   node .ci/bundle-run.mjs test/migrate/real-repos.ts DIR [--clone] [--record]
 *
 * DIR holds one checkout per repository, named as in the list. --clone clones the missing ones with
 * git at their listed commit; --record writes the figures of this run back into the list.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Measured {
  errors: number;
  warnings: number;
  info: number;
  files: number;
  seconds: number;
  peak_rss_mb: number;
}

interface Repository {
  name: string;
  url: string;
  commit: string;
  language: string;
  kind: string;
  /** What migrate-check reported before it asked whether a file talks to the service. */
  before?: Pick<Measured, 'errors' | 'warnings' | 'info'>;
  measured?: Measured;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LIST = join(ROOT, 'test/migrate/real-repos.json');
const BIN = join(ROOT, 'bin/payorder.js');

function clone(repo: Repository, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) => {
    const result = spawnSync('git', ['-C', dir, ...args], { stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${dir}`);
  };
  git('init', '--quiet');
  git('fetch', '--quiet', '--depth', '1', repo.url, repo.commit);
  git('checkout', '--quiet', 'FETCH_HEAD');
}

/** A figure from `/usr/bin/time -v`'s report. */
function timeField(report: string, label: string): string | undefined {
  return report
    .split('\n')
    .find((line) => line.trim().startsWith(label))
    ?.split(/:\s/)
    .slice(1)
    .join(': ')
    .trim();
}

/** "1:02.5" or "0:06.65" or "1:02:03" → seconds. */
function seconds(clock: string): number {
  return clock.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

function measure(dir: string): Measured {
  const run = spawnSync('/usr/bin/time', ['-v', process.execPath, BIN, 'migrate-check', dir, '--json'], {
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (run.status !== 0 && run.status !== 1)
    throw new Error(`migrate-check ${dir}: exit ${run.status}\n${run.stderr}`);
  const report = JSON.parse(run.stdout) as {
    files: number;
    counts: Record<'error' | 'warning' | 'info', number>;
  };
  return {
    errors: report.counts.error,
    warnings: report.counts.warning,
    info: report.counts.info,
    files: report.files,
    seconds: seconds(timeField(run.stderr, 'Elapsed (wall clock) time') ?? '0'),
    peak_rss_mb: Math.round(Number(timeField(run.stderr, 'Maximum resident set size') ?? 0) / 1024),
  };
}

function main(args: string[]): number {
  const folder = args.find((arg) => !arg.startsWith('--'));
  if (!folder) {
    console.error('usage: real-repos.ts DIR [--clone] [--record]');
    return 2;
  }
  const list = JSON.parse(readFileSync(LIST, 'utf8')) as { repositories: Repository[] };
  let failed = 0;
  console.log('repository                 files  errors  warnings  info  seconds  peak RSS (MB)');
  for (const repo of list.repositories) {
    const dir = join(folder, repo.name);
    if (!existsSync(dir)) {
      if (!args.includes('--clone')) {
        console.log(`${repo.name.padEnd(26)} missing (run with --clone, or check it out at ${repo.commit})`);
        failed++;
        continue;
      }
      clone(repo, dir);
    }
    const m = measure(dir);
    if (m.errors > 0 || m.warnings > 0) failed++;
    if (args.includes('--record')) repo.measured = m;
    console.log(
      `${repo.name.padEnd(26)} ${String(m.files).padStart(5)}  ${String(m.errors).padStart(6)}  ${String(m.warnings).padStart(8)}  ${String(m.info).padStart(4)}  ${m.seconds.toFixed(2).padStart(7)}  ${String(m.peak_rss_mb).padStart(13)}`,
    );
  }
  if (args.includes('--record')) writeFileSync(LIST, `${JSON.stringify(list, null, 2)}\n`);
  console.log(
    failed === 0 ? 'every repository: 0 errors, 0 warnings' : `${failed} repositories miss the bar`,
  );
  return failed === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
