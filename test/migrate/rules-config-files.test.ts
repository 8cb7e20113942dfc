/**
 * PO101 in configuration files (src/migrate/config-files.ts), beyond config-files.test.ts: what is
 * a value and what only names one (keys, block labels, a Kubernetes container's name), the name a
 * finding gives a value, where a value that is written differently from its parsed text is placed
 * (escapes, quotes, the last line), which HCL locals are put into an address, and which JSON files
 * given by name are configuration rather than bodies.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ConfigFormat, checkConfigFile } from '../../src/migrate/config-files.js';
import { scan } from '../../src/migrate/scan.js';
import { tempDir } from '../helpers/cli.js';

/** Findings as "LINE:COLUMN RULE". */
async function found(format: ConfigFormat, file: string, lines: string[]): Promise<string[]> {
  return (await checkConfigFile(lines.join('\n'), file, format)).map(
    (f) => `${f.location.line}:${f.location.column} ${f.rule}`,
  );
}

/** What each PO101 finding names the value: "NAME is a v1 address". */
async function names(format: ConfigFormat, file: string, lines: string[]): Promise<string[]> {
  return (await checkConfigFile(lines.join('\n'), file, format))
    .filter((f) => f.rule === 'PO101')
    .map((f) => f.message.replace(/ is a v1 address: .*/, ''));
}

describe('.env: where each value is', () => {
  it('a key written again in a later comment keeps the place of its definition', async () => {
    expect(
      await found('env', '.env', [
        'AUTH_URL=https://auth.example.com/1',
        '# was: AUTH_URL=https://auth.old.example.com/1',
      ]),
    ).toEqual(['1:10 PO101']);
  });

  it('export with more than one space, and a quoted value on the last line without a newline', async () => {
    expect(
      await found('env', '.env', [
        '# payment service',
        'export  CHECKOUT_URL=https://pay.example.com/1',
        'AUTH_URL="https://auth.example.com/1"',
      ]),
    ).toEqual(['2:22 PO101', '3:11 PO101']);
  });
});

describe('YAML: values, not keys, and the names they are given', () => {
  it('a key is a name even when it looks like a path; the same text as a value is reported', async () => {
    expect(
      await found('yaml', 'routes.yml', [
        'paths:',
        '  /1/auth/token:',
        '    post: {}',
        '  token: /1/auth/token',
        '',
      ]),
    ).toEqual(['4:10 PO101']);
  });

  it('a value is named by its key path, joined with dots', async () => {
    expect(
      await names('yaml', 'application.yml', [
        'payorder:',
        '  auth:',
        '    url: https://auth.example.com/1',
        '',
      ]),
    ).toEqual(['payorder.auth.url']);
  });

  it('a Kubernetes env entry is named by its own name, not by the container’s above it', async () => {
    expect(
      await names('yaml', 'deploy.yaml', [
        'containers:',
        '  - name: shop',
        '    image: shop:1',
        '    env:',
        '      - name: AUTH_URL',
        '        value: https://auth.example.com/1',
        '',
      ]),
    ).toEqual(['AUTH_URL']);
  });
});

describe('JSON configuration', () => {
  it('a value is named by its key path; an entry is named by its name or key beside it, never by another value', async () => {
    expect(
      await names('json', 'appsettings.json', [
        '{ "PayOrder": { "AuthUrl": "https://auth.example.com/1" },',
        '  "values": [{ "key": "checkoutUrl", "value": "https://pay.example.com/1" },',
        '             { "value": "https://auth.example.com/1", "key": "authUrl" }] }',
      ]),
    ).toEqual(['PayOrder.AuthUrl', 'checkoutUrl', 'authUrl']);
  });

  it('the items of a list in the order they are written', async () => {
    expect(
      await found('json', 'config.json', [
        '{ "PayOrder": { "AuthUrls": [',
        '  "https://auth.example.com/1",',
        '  "https://auth.stage.example.com/1"',
        '] } }',
      ]),
    ).toEqual(['2:4 PO101', '3:4 PO101']);
  });

  it('a .jsonc file that is not JSON has no findings', async () => {
    expect(await found('json', 'broken.jsonc', ['{ "AuthUrl": "https://auth.example.com/1", '])).toEqual([]);
  });

  it('a JSON file named as configuration says nothing when it holds no address; another file is not a recognized body', async () => {
    const dir = tempDir();
    const config = [
      'appsettings.json',
      'appsettings.Development.json',
      'appsettings.prod-eu.json',
      'local.settings.json',
      'launchSettings.json',
      'config.json',
      'config.staging.json',
      'settings.json',
      'settings.local.jsonc',
      'app.config.json',
      'shop.postman_environment.json',
      'workspace.postman_globals.json',
    ];
    const others = [
      'data.json',
      'myappsettings.json',
      'appsettings..json',
      'localXsettings.json',
      'configs.json',
      'my-settings.json',
      '.config.json',
      'shop.postman_collection.json',
    ];
    const paths = [...config, ...others].map((name) => {
      writeFileSync(join(dir, name), '{ "Logging": { "LogLevel": "Information" } }\n');
      return join(dir, name);
    });
    const result = await scan(paths, { fix: false });
    expect(result.findings.map((f) => `${f.location.file.slice(dir.length + 1)} ${f.rule}`)).toEqual(
      others.map((name) => `${name} PO202`),
    );
  });
});

describe('Java .properties', () => {
  it('a value with an escaped colon (https\\://) is placed where the value starts', async () => {
    expect(
      await found('properties', 'app.properties', ['payorder.auth-url=https\\://auth.example.com/1']),
    ).toEqual(['1:19 PO101']);
  });
});

describe('HCL', () => {
  it('a .hcl file (Terragrunt) is read with the HCL grammar', async () => {
    expect(
      await found('hcl', 'terragrunt.hcl', [
        'inputs = {',
        '  auth_url = "https://auth.example.com/1"',
        '}',
        '',
      ]),
    ).toEqual(['2:15 PO101']);
  });

  it('a block label is a name, even one that looks like an address', async () => {
    expect(
      await found('hcl', 'policy.hcl', [
        'path "payorder/1/auth/token" {',
        '  capabilities = ["read"]',
        '}',
        'backend "https://auth.example.com/1" {}',
        '',
      ]),
    ).toEqual([]);
  });

  it('${ local.x } with spaces is put in; an attribute of another block, a conditional local and an interpolated local are not', async () => {
    expect(
      await found('hcl', 'main.tf', [
        'module "shop" { api_prefix = "/1" }',
        'locals {',
        '  v1_prefix = "/1"',
        '  chosen    = var.v1 ? "/1" : "/v2/api"',
        '  versioned = "/1${var.suffix}"',
        '}',
        'resource "a" "spaced" { value = "https://checkout.example.com${ local.v1_prefix }/order/" }',
        'resource "a" "module" { value = "https://checkout.example.com${local.api_prefix}/order/" }',
        'resource "a" "chosen" { value = "https://checkout.example.com${local.chosen}/order/" }',
        'resource "a" "interp" { value = "https://checkout.example.com${local.versioned}/order/" }',
        '',
      ]),
    ).toEqual(['1:31 PO101', '3:16 PO101', '7:33 PO101', '7:33 PO106']);
  });
});
