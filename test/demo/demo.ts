/**
 * `npm run demo`: payorder's main jobs, end to end, against a local sandbox on a free port, in a
 * throw-away config folder. Shows what a person sees, then stops the sandbox: the steps a person
 * reads run on a pseudo-terminal (`script`, 100 columns), so they show tables and colors as in a
 * terminal even when the demo's own output is piped; the steps a script would run stay piped.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin/payorder.js');
const SAMPLE = join(ROOT, 'test/demo/orders.ndjson');
const config = mkdtempSync(join(tmpdir(), 'payorder-demo-'));

const sandbox = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const { url } = JSON.parse(
  await new Promise<string>((resolve) =>
    sandbox.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString())),
  ),
);
const env = {
  ...process.env,
  PAYORDER_CONFIG_DIR: config,
  // The demo's orders stay out of the person's own order ledger (a second demo would find its
  // references in use).
  PAYORDER_DATA_DIR: join(config, 'data'),
  PAYORDER_AUTH_URL: url,
  PAYORDER_CHECKOUT_URL: url,
};

/** Whether util-linux `script` is here to give the person-facing steps a pseudo-terminal. */
const TERMINAL = spawnSync('script', ['-qefc', 'true', '/dev/null'], { stdio: 'ignore' }).status === 0;

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * Runs one step and shows it. `capture` steps are what a script runs (`$(payorder … --field uuid)`):
 * piped, and their output returned. The others run on a pseudo-terminal, as a person sees them.
 */
function step(title: string, args: string[], options: { capture?: boolean } = {}): string {
  process.stdout.write(
    `\n\u001b[1m── ${title}\u001b[0m\n$ payorder ${args.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ')}\n`,
  );
  if (options.capture || !TERMINAL) {
    const result = spawnSync(process.execPath, [BIN, ...args], {
      env,
      stdio: ['ignore', options.capture ? 'pipe' : 'inherit', 'inherit'],
      encoding: 'utf8',
    });
    if (options.capture) process.stdout.write(result.stdout);
    return options.capture ? result.stdout : '';
  }
  const line = [process.execPath, BIN, ...args].map(quote).join(' ');
  const result = spawnSync(
    'script',
    ['-qefc', `stty cols 100 rows 50 2>/dev/null; exec ${line}`, '/dev/null'],
    {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
    },
  );
  // A terminal ends its lines with CR LF; the demo's reader may be a file or a pipe.
  process.stdout.write(result.stdout.replace(/\r\n/g, '\n'));
  return '';
}

try {
  process.stdout.write(`payorder demo: sandbox at ${url}, config in a temporary folder\n`);
  if (!TERMINAL)
    process.stdout.write('(no util-linux `script` here: the steps show what a pipe gets, not a terminal)\n');
  step('Log in to the sandbox (its documented test account)', ['login', '--env', 'sandbox']);
  step('Create an order on v2 (the amount is converted to cents exactly)', [
    'order',
    'create',
    '--env',
    'sandbox',
    '--amount',
    '12.50',
    '--description',
    'Invoice 42',
    '--success',
    'https://shop.example/thanks',
    '--fail',
    'https://shop.example/cart',
    '--external-reference',
    'INV-42',
  ]);
  const v2 = step(
    'The same, asking only for what a script needs',
    [
      'order',
      'create',
      '--env',
      'sandbox',
      '--amount',
      '7.25',
      '--description',
      'Coffee beans',
      '--success',
      'https://shop.example/thanks',
      '--fail',
      'https://shop.example/cart',
      '--field',
      'uuid',
    ],
    { capture: true },
  ).trim();
  const v1 = step(
    'Create an order on v1 (deprecated: note the warning)',
    [
      'order',
      'create',
      '--env',
      'sandbox',
      '--api',
      'v1',
      '--amount',
      '30',
      '--description',
      'Legacy checkout',
      '--success',
      'https://shop.example/thanks',
      '--fail',
      'https://shop.example/cart',
      '--field',
      'id',
    ],
    { capture: true },
  ).trim();
  step('Pay the v2 order in the sandbox, as its payment page’s Pay button does', ['sandbox', 'pay', v2]);
  step('Look both up: the v2 one is paid now', ['order', 'get', v2, '--env', 'sandbox']);
  step('A v1 order by its id', ['order', 'get', v1, '--env', 'sandbox', '--api', 'v1']);
  step('A small batch from NDJSON, one result per line (one line is bad on purpose)', [
    'order',
    'create',
    '--env',
    'sandbox',
    '--input',
    SAMPLE,
    '--journal',
    join(config, 'demo.journal'),
  ]);
  step('Run it again with the same journal: nothing is created twice', [
    'order',
    'create',
    '--env',
    'sandbox',
    '--input',
    SAMPLE,
    '--journal',
    join(config, 'demo.journal'),
    '-o',
    'tsv',
  ]);
  step('Where am I logged in?', ['status', '--env', 'sandbox']);
  step('Every order the sandbox holds', ['sandbox', 'orders']);
} finally {
  sandbox.kill('SIGTERM');
  rmSync(config, { recursive: true, force: true });
}
