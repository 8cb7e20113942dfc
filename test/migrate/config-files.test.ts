import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ConfigFormat, checkConfigFile, configFormatOf } from '../../src/migrate/config-files.js';
import { scan } from '../../src/migrate/scan.js';
import { tempDir } from '../helpers/cli.js';

/** Each finding as "LINE:COLUMN RULE". */
async function found(format: ConfigFormat, text: string, file = `config.${format}`): Promise<string[]> {
  return (await checkConfigFile(text, file, format)).map(
    (f) => `${f.location.line}:${f.location.column} ${f.rule}`,
  );
}

describe('configuration files, read as their formats', () => {
  it('knows the formats by name', () => {
    expect(
      [
        '.env',
        '.env.production',
        'prod.env',
        'application.yml',
        'cm.yaml',
        'main.tf',
        'prod.tfvars',
        'x.hcl',
        'application.properties',
        'app.jsonc',
      ].map((name) => configFormatOf(join('a', name))),
    ).toEqual(['env', 'env', 'env', 'yaml', 'yaml', 'hcl', 'hcl', 'hcl', 'properties', 'json']);
    expect(configFormatOf('src/app.js')).toBeUndefined();
  });

  it('.env: v1 bases, ${VAR:-…} defaults and endpoint paths at the column where the address starts; v2 and unrelated addresses are not findings', async () => {
    const text = [
      '# the payment service',
      'AUTH_URL=https://auth.stage.example.com/1',
      'CHECKOUT_URL="${CHECKOUT_URL:-https://pay.stage.example.com/1}"',
      'export LOOKUP_URL=https://pay.stage.example.com/1/order/',
      'TOKEN_ENDPOINT=${AUTH_BASE}/1/auth/token',
      'NEW_AUTH_URL=https://auth.v2.example.com/v2/api',
      'DOCS_URL=https://example.com/1',
      'HOME_PAGE=https://shop.example/1/checkout.js',
      '',
    ].join('\n');
    expect(await found('env', text, '.env')).toEqual([
      '2:10 PO101',
      '3:31 PO101',
      '4:19 PO101',
      '4:19 PO106',
      '5:28 PO101',
    ]);
    const [first] = await checkConfigFile(text, '.env', 'env');
    expect(first!.message).toBe('AUTH_URL is a v1 address: https://auth.stage.example.com/1');
    expect(first!.fix).toBe(
      'the v2 auth address with /v2/api ({auth_url}/v2/api); the v2 domain differs from v1',
    );
  });

  it('a base that expands a variable, in the syntax of its format: ${X}/1, %(x)s/1, <%= … %>/1, #{x}/1', async () => {
    const env = 'AUTH_URL=${AUTH_BASE}/1\nCHECKOUT_URL=$CHECKOUT_BASE/1\nDOCS_URL=${DOCS_BASE}/1\n';
    expect(await found('env', env, '.env')).toEqual(['1:10 PO101', '2:14 PO101']);
    const yaml = [
      'production:',
      '  auth_url: <%= ENV["AUTH_BASE"] %>/1',
      '  checkout_url: "<%= ENV.fetch(\'CHECKOUT_BASE\') %>/1"',
      '  v2_auth_url: <%= ENV["AUTH_BASE"] %>/v2/api',
      '',
    ].join('\n');
    expect(await found('yaml', yaml, 'payorder.yml')).toEqual(['2:13 PO101', '3:18 PO101']);
    const json = '{"payorder": {"authUrl": "${AUTH_BASE}/1", "checkoutUrl": "%(CHECKOUT_BASE)s/1"}}';
    expect(await found('json', json, 'config.json')).toEqual(['1:27 PO101', '1:60 PO101']);
    const properties = 'payorder.auth-url=${AUTH_BASE}/1\npayorder.checkout-url=#{CHECKOUT_BASE}/1\n';
    expect(await found('properties', properties, 'app.properties')).toEqual(['1:19 PO101', '2:23 PO101']);
    const [first] = await checkConfigFile(env, '.env', 'env');
    expect(first!.message).toBe('AUTH_URL is a v1 address: ${AUTH_BASE}/1');
  });

  it('YAML: Spring application.yml and a Kubernetes ConfigMap, every document, block scalars too', async () => {
    const text = [
      'payorder:',
      '  auth-url: https://auth.example.com/1',
      '  checkout-url: "${CHECKOUT_URL:https://pay.example.com/1}"',
      '  docs: https://example.com/1',
      '  v2-auth-url: https://auth.v2.example.com/v2/api',
      '---',
      'apiVersion: v1',
      'kind: ConfigMap',
      'data:',
      '  AUTH_URL: "https://auth.example.com/1"',
      '  application.properties: |',
      '    payorder.checkout-url=https://checkout.example.com/1',
      '---',
      'spec:',
      '  env:',
      '    - name: PAYORDER_AUTH',
      '      value: https://login.example.com/1',
      '',
    ].join('\n');
    const findings = await checkConfigFile(text, 'cm.yaml', 'yaml');
    expect(findings.map((f) => `${f.location.line}:${f.location.column} ${f.rule}`)).toEqual([
      '2:13 PO101',
      '3:33 PO101',
      '10:14 PO101',
      '12:27 PO101',
      '17:14 PO101',
    ]);
    // A Kubernetes env entry is named by its name, not its key path.
    expect(findings[4]!.message).toBe('PAYORDER_AUTH is a v1 address: https://login.example.com/1');
  });

  it('JSON configuration (appsettings.json, comments and trailing commas allowed), and the prefix configured alone', async () => {
    const text = [
      '{',
      '  // where the payment service is',
      '  "PayOrder": {',
      '    "AuthUrl": "https://auth.example.com/1",',
      '    "CheckoutUrl": "https://pay.example.com/v2/api",',
      '    "ApiPrefix": "/1",',
      '  },',
      '  "Env": [{ "name": "CHECKOUT_URL", "value": "https://pay.example.com/1" }],',
      '  "Page": "/1",',
      '}',
    ].join('\n');
    expect(await found('json', text, 'appsettings.json')).toEqual(['4:17 PO101', '6:19 PO101', '8:47 PO101']);
  });

  it('HCL / Terraform: variable defaults, locals and tfvars; block labels are names, not values', async () => {
    const text = [
      'variable "auth_url" {',
      '  type    = string',
      '  default = "https://auth.example.com/1"',
      '}',
      'variable "docs_url" { default = "https://example.com/1" }',
      'locals {',
      '  payorder_api_prefix = "/1"',
      '  checkout            = "${var.base}/1/checkout"',
      '  v2                  = "https://auth.v2.example.com/v2/api"',
      '  env = {',
      '    AUTH_URL = <<-EOT',
      '      https://auth.example.com/1',
      '    EOT',
      '  }',
      '}',
      '',
    ].join('\n');
    expect(await found('hcl', text, 'main.tf')).toEqual([
      '3:14 PO101',
      '7:26 PO101',
      '8:37 PO101',
      '12:7 PO101',
    ]);
    expect(await found('hcl', 'auth_url = "https://auth.example.com/1"\n', 'prod.tfvars')).toEqual([
      '1:13 PO101',
    ]);
  });

  it('HCL: a plain local put into an address (${local.api_prefix}) makes it a v1 one; other interpolations do not', async () => {
    const text = [
      'locals {',
      '  api_prefix = "/1"',
      '  v2_prefix  = "/v2/api"',
      '  nested     = { prefix = "/1" }',
      '}',
      'resource "aws_ssm_parameter" "lookup" {',
      '  value = "https://checkout.example.com${local.api_prefix}/order/"',
      '}',
      'resource "aws_ssm_parameter" "v2" { value = "https://checkout.example.com${local.v2_prefix}/orders/" }',
      'resource "aws_ssm_parameter" "other" { value = "https://checkout.example.com${local.prefix}/order/" }',
      '',
    ].join('\n');
    const findings = await checkConfigFile(text, 'main.tf', 'hcl');
    expect(findings.map((f) => `${f.location.line} ${f.rule} ${f.message}`)).toEqual([
      '2 PO101 locals.api_prefix is a v1 address: the v1 version prefix /1',
      '4 PO101 locals.nested.prefix is a v1 address: the v1 version prefix /1',
      '7 PO101 resource.aws_ssm_parameter.lookup.value is a v1 address: https://checkout.example.com/1/order/',
      '7 PO106 the v1 lookup path /order/:id',
    ]);
  });

  it('Java .properties: values after =, : or a space, ${VAR:default} included', async () => {
    const text = [
      '# payments',
      'payorder.auth-url = https://auth.example.com/1',
      'payorder.checkout-url=${CHECKOUT_URL:https://pay.example.com/1}',
      'payorder.lookup-url https://pay.example.com/1/order/',
      'other=https://example.com/1',
      'payorder.v2-url=https://pay.v2.example.com/v2/api',
      '',
    ].join('\n');
    expect(await found('properties', text, 'application.properties')).toEqual([
      '2:21 PO101',
      '3:38 PO101',
      '4:21 PO101',
      '4:21 PO106',
    ]);
  });

  it('a folder: configuration files are read as configuration (a JSON config is no longer skipped as unrecognized)', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'config'));
    writeFileSync(
      join(dir, 'appsettings.json'),
      '{ "PayOrder": { "AuthUrl": "https://auth.example.com/1" } }\n',
    );
    writeFileSync(join(dir, 'config', 'app.yml'), 'ok: https://auth.v2.example.com/v2/api\n');
    writeFileSync(join(dir, '.env'), 'CHECKOUT_URL=https://pay.example.com/1\n');
    const result = await scan([dir], { fix: false });
    expect(result.files).toBe(3);
    expect(
      result.findings.map((f) => `${f.location.file.slice(dir.length + 1)}:${f.location.line} ${f.rule}`),
    ).toEqual(['.env:1 PO101', 'appsettings.json:1 PO101']);
  });
});
