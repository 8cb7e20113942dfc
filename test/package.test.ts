/**
 * The published package: `npm pack` yields a tarball that installs payorder alone (the bundle holds
 * every dependency) with no install script, carries the licences of what it bundles and of its
 * grammars, its SBOM and the completions, and runs on every Node it supports: the engines floor (the oldest 22), the latest 22,
 * the oldest 24 allowed, the toolchain's 24 and 26, each but the toolchain's from .ci/runtimes.mjs.
 *
 * The tarball is packed once and installed twice, at the same time:
 * - globally, as the README says (`npm install -g ./payorder-X.tgz`): payorder and its optional
 *   keychain addon, @napi-rs/keyring with its one package for this platform, nothing else. The Node
 *   runs use this install;
 * - into a folder with `--omit=optional`: payorder alone. Not globally: npm installs optional
 *   dependencies of a global tarball install whatever --omit says (npm/cli#8284).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { join, resolve } from 'node:path';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeRuntime, RUNTIMES } from '../.ci/runtimes.mjs';
import { recordsOf, writeOrderLines } from './helpers/batch.js';
import { tempDir } from './helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '..');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const work = tempDir('payorder-pack-');
const globalPrefix = join(work, 'global');
const onePackage = join(work, 'one-package');
const TOOLCHAIN = join(ROOT, 'node_modules/node');
/** The Nodes the package runs on, each with its binary once beforeAll has it. */
const NODES = [
  { role: 'the engines floor', version: RUNTIMES.floor, binary: '' },
  { role: 'the latest 22', version: RUNTIMES.latest22, binary: '' },
  {
    role: "the toolchain's",
    version: (JSON.parse(readFileSync(join(TOOLCHAIN, 'package.json'), 'utf8')) as { version: string })
      .version,
    binary: join(TOOLCHAIN, 'bin/node'),
  },
  { role: '26', version: RUNTIMES.node26, binary: '' },
];

/** The packed tarball, once beforeAll has packed it. */
let tarball = '';

/** Packs the project once and installs the tarball under each prefix, with npm's `flags`. */
async function packAndInstall(installs: Array<[prefix: string, flags: string[]]>): Promise<void> {
  // dist/ is built by the test run's global setup; packing must not rebuild it under the other tests.
  const packed = await execa('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], {
    cwd: ROOT,
  });
  tarball = join(work, packed.stdout.trim().split('\n').pop()!);
  // npm keeps the machine's environment (certificate settings among it); --prefix moves its global folder.
  await Promise.all(
    installs.map(([prefix, flags]) =>
      execa('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', ...flags, tarball], {
        cwd: work,
        stdin: 'ignore',
      }),
    ),
  );
}

/** The packages installed in a node_modules folder and in those nested in it, by name. */
function packagesIn(nodeModules: string): string[] {
  if (!existsSync(nodeModules)) return [];
  return readdirSync(nodeModules)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) =>
      name.startsWith('@')
        ? readdirSync(join(nodeModules, name)).map((inScope) => `${name}/${inScope}`)
        : [name],
    )
    .flatMap((name) => [name, ...packagesIn(join(nodeModules, name, 'node_modules'))]);
}

// A runtime is installed from the registry on its first use (.ci/run installs them before the tests).
/** A Node older than payorder supports, once beforeAll has it. */
let belowFloor = '';

beforeAll(async () => {
  const runtimes = NODES.filter((node) => node.binary === '');
  const [, older, ...binaries] = await Promise.all([
    packAndInstall([
      [globalPrefix, ['--global']],
      [onePackage, ['--omit=optional']],
    ]),
    nodeRuntime(RUNTIMES.belowFloor),
    ...runtimes.map((node) => nodeRuntime(node.version)),
  ]);
  belowFloor = older;
  runtimes.forEach((node, index) => {
    node.binary = binaries[index]!;
  });
}, 600_000);

// Installs are large: leave nothing behind.
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the installed package', () => {
  const installed = join(globalPrefix, 'lib/node_modules/payorder');

  it('is payorder alone with --omit=optional, and adds only the keychain addon without it', () => {
    expect(packagesIn(join(onePackage, 'node_modules'))).toEqual(['payorder']);
    expect(packagesIn(join(globalPrefix, 'lib/node_modules')).sort()).toEqual([
      '@napi-rs/keyring',
      expect.stringMatching(/^@napi-rs\/keyring-[a-z0-9-]+$/),
      'payorder',
    ]);
  });

  it('declares no dependency and no install script', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(Object.keys(manifest.optionalDependencies)).toEqual(['@napi-rs/keyring']);
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(manifest.scripts?.[script], script).toBeUndefined();
  });

  it("starts the sandbox in process from 'payorder/dist/sandbox.js', as the README shows", async () => {
    const { startSandbox } = await import(join(installed, 'dist/sandbox.js'));
    const sandbox = await startSandbox({ port: 0 });
    try {
      const answer = await fetch(`${sandbox.url}/v2/api/orders/${'0'.repeat(36)}`);
      // Without a token: the service's 401, from the packaged server.
      expect(answer.status).toBe(401);
    } finally {
      await sandbox.close();
    }
  });

  it('carries the licences of the bundled packages, and the completions', () => {
    const licenses = readFileSync(join(installed, 'THIRD_PARTY_LICENSES'), 'utf8');
    // Each package's part: its heading, then its licence's text.
    const parts = licenses.split(`\n\n${'-'.repeat(80)}\n\n`).map((part) => part.trim());
    for (const name of ['commander', 'ky', 'zod']) {
      const part = parts.find((each) => each.startsWith(`${name} `));
      expect(part, name).toMatch(
        new RegExp(`^${name} [\\d.]+ \\(MIT\\)\\n\\n[^]*Permission is hereby granted`),
      );
    }
    expect(licenses).not.toMatch(/^@napi-rs\/keyring /m);
    // conf's schema validator and migration runner are left out of the bundle (.ci/build.mjs): the
    // store is written without them by every login below.
    for (const name of ['ajv', 'ajv-formats', 'semver'])
      expect(licenses).not.toMatch(new RegExp(`^${name} `, 'm'));
    const completions = readdirSync(join(installed, 'completions')).sort();
    expect(completions).toEqual(readdirSync(join(ROOT, 'completions')).sort());
    expect(completions).toEqual(
      expect.arrayContaining(['_payorder', 'payorder.bash', 'payorder.fish', 'payorder.ps1']),
    );
    expect(existsSync(join(installed, 'src'))).toBe(false);
  });
  it('carries its SBOM, which lists the bundled packages and the grammars, and the grammars’ licences', async () => {
    const text = readFileSync(join(installed, 'dist/sbom.cdx.json'), 'utf8');
    expect(await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(text)).toBeNull();
    const sbom = JSON.parse(text);
    expect(sbom.metadata.component).toMatchObject({ name: 'payorder', version });
    const names = sbom.components.map((component: { group?: string; name: string }) =>
      component.group ? `${component.group}/${component.name}` : component.name,
    );
    for (const name of ['commander', 'ky', 'zod', 'undici', 'conf', '@vscode/tree-sitter-wasm'])
      expect(names, name).toContain(name);
    // Every place the SBOM names is a file of the installed package.
    for (const component of sbom.components)
      for (const { location } of component.evidence?.occurrences ?? [])
        expect(existsSync(join(installed, location)), location).toBe(true);
    const licenses = readFileSync(join(installed, 'THIRD_PARTY_LICENSES'), 'utf8');
    for (const grammar of readdirSync(join(installed, 'dist/grammars')))
      expect(licenses, grammar).toContain(`dist/grammars/${grammar}`);
    expect(licenses).toMatch(
      /^@tree-sitter-grammars\/tree-sitter-hcl [\d.]+ \(Apache-2\.0\)\n\nShipped as [^\n]*\n\n[\s\S]*Apache License/m,
    ); // jq.wasm is jq with Oniguruma and decNumber compiled in: their notices follow jq-wasm's own.
    const jq = licenses.slice(licenses.indexOf('\njq-wasm '));
    for (const notice of ['jq is copyright (C) 2012 Stephen Dolan', 'ICU License', 'Oniguruma LICENSE'])
      expect(jq.slice(0, jq.indexOf(`\n\n${'-'.repeat(80)}\n\n`)), notice).toContain(notice);
  });
});

describe('the packed package', () => {
  // migrate-check's grammars are WebAssembly files that only it loads: outside the size budget.
  // undici (the HTTP client under ky) is about 220 kB of the tarball.
  // 620 kB since --jq: jq-wasm's JavaScript (its WebAssembly is in dist/grammars/) took it past 600.
  // 1.8 MB of code and 660 kB since the order ledger, order find, migrate-check's edits and jq's own
  // notices in THIRD_PARTY_LICENSES (1.74 MB and 642 kB with them).
  it('is small: its code at most 1.8 MB, the tarball without the grammars at most 660 kB', async () => {
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    await execa('tar', ['-xzf', tarball, '-C', unpacked]);
    const dist = join(unpacked, 'package/dist');
    const grammars = join(dist, 'grammars');
    const code = readdirSync(dist, { recursive: true, encoding: 'utf8' })
      .map((file) => join(dist, file))
      // Its code: the SBOM beside it is data.
      .filter((file) => !file.startsWith(grammars) && /\.c?js$/.test(file) && statSync(file).isFile())
      .reduce((total, file) => total + statSync(file).size, 0);
    expect(code).toBeLessThanOrEqual(1_800_000);
    // Packed again as npm packs (gzip's default level), with the grammars taken out.
    rmSync(grammars, { recursive: true });
    const withoutGrammars = join(work, 'without-grammars.tgz');
    await execa('tar', ['-czf', withoutGrammars, '-C', unpacked, 'package']);
    expect(statSync(withoutGrammars).size).toBeLessThanOrEqual(660_000);
  });
});

describe('on a Node it does not support', () => {
  it(`Node ${RUNTIMES.belowFloor}: one line that names the Node it needs, exit 1, nothing run`, async () => {
    const env = {
      PATH: `${join(globalPrefix, 'bin')}:${join(belowFloor, '..')}:${process.env.PATH}`,
      HOME: work,
      PAYORDER_CONFIG_DIR: join(work, 'config-below-floor'),
      PAYORDER_DATA_DIR: join(work, 'data-below-floor'),
    };
    for (const args of [['--version'], ['order', 'find', '--ref', 'WEB-1003']]) {
      const result = await execa('payorder', args, { env, extendEnv: false, reject: false });
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `error: payorder needs Node.js 22.13 or later; this is Node.js ${RUNTIMES.belowFloor}\nhint: install a current Node.js (an LTS release), then run payorder again`,
      );
    }
    expect(existsSync(join(work, 'data-below-floor'))).toBe(false);
  });
});

describe.concurrent('on each Node it supports', () => {
  it.for(NODES)(
    'Node $version ($role): --version, then the sandbox, login, an order and a batch',
    async (target) => {
      const env = {
        PATH: `${join(globalPrefix, 'bin')}:${join(target.binary, '..')}:${process.env.PATH}`,
        HOME: work,
        PAYORDER_CONFIG_DIR: join(work, `config-${target.version}`),
        // Each Node its own order ledger: the batches' references are the same.
        PAYORDER_DATA_DIR: join(work, `data-${target.version}`),
      };
      expect((await execa('node', ['--version'], { env, extendEnv: false })).stdout).toBe(
        `v${target.version}`,
      );
      expect((await execa('payorder', ['--version'], { env, extendEnv: false })).stdout).toBe(version);

      const sandbox = execa('payorder', ['sandbox', '--port', '0', '--json'], {
        env,
        extendEnv: false,
        reject: false,
      });
      try {
        const { url } = JSON.parse(await firstLine(sandbox.stdout!));
        const run = (args: string[]) =>
          execa('payorder', args, {
            env: { ...env, PAYORDER_AUTH_URL: url, PAYORDER_CHECKOUT_URL: url },
            extendEnv: false,
            reject: false,
          });
        // The secret stays in the test's folder whatever keychain the machine has (the keychain has tests of its own).
        const login = await run(['login', '--env', 'sandbox', '--insecure-storage']);
        expect(login.exitCode, String(login.stderr)).toBe(0);
        const order = await run([
          'order',
          'create',
          '--env',
          'sandbox',
          '--amount',
          '19.99',
          '--description',
          'Packaged',
          '--success',
          'https://s.example/ok',
          '--fail',
          'https://s.example/ko',
          '--json',
        ]);
        expect(order.exitCode, String(order.stderr)).toBe(0);
        expect(JSON.parse(String(order.stdout))).toMatchObject({
          amount: '19.99',
          amount_cents: '1999',
          status: 'PENDING',
        });
        // A batch goes through a keep-alive agent of its own.
        const batch = await run([
          'order',
          'create',
          '--env',
          'sandbox',
          '--input',
          writeOrderLines(work, 3, `batch-${target.version}.ndjson`),
          '-o',
          'ndjson',
        ]);
        expect(batch.exitCode, String(batch.stderr)).toBe(0);
        expect(recordsOf(String(batch.stdout)).map((record) => record.outcome)).toEqual([
          'created',
          'created',
          'created',
        ]);
        // Every V8 flag a batch sets is one this Node knows (V8 writes an error line for one it does not).
        expect(String(batch.stderr)).toMatch(/^3 lines in \d+\.\d s: 3 created, [^\n]*$/);
        // The order ledger (node:sqlite) found them, and Node 22 said nothing of it on stderr.
        const found = await run(['order', 'find', '--env', 'sandbox', '--ref', 'REF-2', '--field', 'amount']);
        expect(found.exitCode, String(found.stderr)).toBe(0);
        expect(String(found.stdout)).toBe('2.02');
        expect(String(found.stderr)).toBe('');
        expect(String(order.stderr)).toBe('');

        // A one-shot command learns from this Node's fetch whether its request left (undici's
        // diagnostics channels): an order read by the server, then the connection cut, is "outcome
        // unknown", never "nothing was sent", which would invite sending it again.
        const cutting = createTcpServer((socket) => {
          socket.on('error', () => {});
          socket.once('data', () => socket.resetAndDestroy());
        });
        await new Promise<void>((resolve) => cutting.listen(0, '127.0.0.1', resolve));
        try {
          const cut = await execa(
            'payorder',
            ['order', 'create', '--env', 'sandbox', '--amount', '1', '--description', 'Cut'].concat([
              '--success',
              'https://s.example/ok',
              '--fail',
              'https://s.example/ko',
            ]),
            {
              env: {
                ...env,
                PAYORDER_AUTH_URL: url,
                PAYORDER_CHECKOUT_URL: `http://127.0.0.1:${(cutting.address() as AddressInfo).port}`,
              },
              extendEnv: false,
              reject: false,
            },
          );
          expect(cut.exitCode, String(cut.stderr)).toBe(5);
          expect(String(cut.stderr)).toContain('outcome unknown: the request reached');
        } finally {
          cutting.close();
        }
      } finally {
        sandbox.kill('SIGTERM');
        await sandbox;
      }
    },
  );
});

/** The first line a stream writes. */
function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolveLine, reject) => {
    let text = '';
    stream.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolveLine(text.slice(0, text.indexOf('\n')));
    });
    stream.once('end', () => reject(new Error(`no line before the stream ended: ${text}`)));
  });
}
