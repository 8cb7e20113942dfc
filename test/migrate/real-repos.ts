/**
 * The local tier of migrate-check: public repositories that never talk to the payment order service
 * (shops, commerce platforms, other providers' SDKs, a large monorepo), listed with their commits in
 * real-repos.json. Each is checked whole with the built CLI; the bar is no error and no warning on
 * any of them. Prints errors, warnings, info, wall time and peak RSS per repository, and exits 1 when
 * one misses the bar. Not part of `npm test`: the repositories are large and not ours.
 *
 *   node .ci/bundle-run.mjs test/migrate/real-repos.ts DIR [--clone] [--record] [--plant]
 *
 * DIR holds one checkout per repository, named as in the list. --clone clones the missing ones with
 * git at their listed commit; --record writes the figures of this run back into the list. --plant
 * also puts a v1 client of the labelled corpus, in the repository's language, into its busiest
 * folder, checks again, and takes it away: every error and warning must then be in that client, and
 * the client must have some.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, extname, join } from 'node:path';
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

/** A v1 client of the labelled corpus for each language of the list, and the name it is planted as. */
const CLIENTS: Record<string, { from: string; as: string }> = {
  PHP: { from: 'php-curl/v1/includes/payorder.php', as: 'PayOrderClient.php' },
  Python: { from: 'python-requests/v1/payorder/client.py', as: 'payorder_client.py' },
  Ruby: { from: 'ruby-faraday/v1/app/services/pay_order_client.rb', as: 'pay_order_client.rb' },
  TypeScript: { from: 'typescript/v1/src/payorder/client.ts', as: 'payorder-client.ts' },
  Java: {
    from: 'java-spring/v1/src/main/java/com/acme/shop/payorder/PayOrderClient.java',
    as: 'PayOrderClient.java',
  },
};

/** The folder with the most files of an extension (dependencies and hidden folders left out). */
function busiestFolder(root: string, extension: string): string {
  const counts = new Map<string, number>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (
      !entry.isFile() ||
      extname(entry.name) !== extension ||
      /\/(?:node_modules|vendor|\.[^/]+)\//.test(path)
    )
      continue;
    counts.set(entry.parentPath, (counts.get(entry.parentPath) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? root;
}

/** Checks the repository with a v1 client planted in it; a line saying what was wrong, if anything. */
function planted(repo: Repository, dir: string): string | undefined {
  const client = CLIENTS[repo.language];
  if (!client) return `no corpus client for ${repo.language}`;
  const target = join(busiestFolder(dir, extname(client.as)), client.as);
  copyFileSync(join(ROOT, 'test/fixtures/migrate/corpus', client.from), target);
  try {
    const run = spawnSync(process.execPath, [BIN, 'migrate-check', dir, '--json'], {
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
    });
    const report = JSON.parse(run.stdout) as {
      findings: Array<{ severity: string; location: { file: string } }>;
    };
    const serious = report.findings.filter((f) => f.severity !== 'info');
    const elsewhere = serious.filter((f) => f.location.file !== target);
    if (elsewhere.length > 0)
      return `${elsewhere.length} errors or warnings beside ${target}, e.g. in ${elsewhere[0]!.location.file}`;
    if (serious.length === 0) return `nothing found in the planted ${target}`;
    console.log(
      `${''.padEnd(26)} planted in ${dirname(target).slice(dir.length + 1)}: ${serious.length} errors and warnings, all in it`,
    );
    return undefined;
  } finally {
    rmSync(target);
  }
}

function main(args: string[]): number {
  const folder = args.find((arg) => !arg.startsWith('--'));
  if (!folder) {
    console.error('usage: real-repos.ts DIR [--clone] [--record] [--plant]');
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
    const plantedWrong = args.includes('--plant') ? planted(repo, dir) : undefined;
    if (plantedWrong) {
      console.log(`${''.padEnd(26)} ${plantedWrong}`);
      failed++;
    }
  }
  if (args.includes('--record')) writeFileSync(LIST, `${JSON.stringify(list, null, 2)}\n`);
  console.log(
    failed === 0 ? 'every repository: 0 errors, 0 warnings' : `${failed} repositories miss the bar`,
  );
  return failed === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
