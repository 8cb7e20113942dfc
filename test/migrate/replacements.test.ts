/**
 * Suggested replacement lines: each one offered parses with the grammar of its file, as well as the
 * line it replaces; where it would not, none is offered and the fix says why.
 */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/migrate/rules.js';
import { checkSource } from '../../src/migrate/source.js';
import { NO_REPLACEMENT, syntaxErrors, toFindings } from '../../src/migrate/syntax/check-file.js';
import { parserFor } from '../../src/migrate/syntax/grammars.js';
import type { Hit } from '../../src/migrate/syntax/hits.js';

const shown = (findings: Finding[]) =>
  findings.map((f) => `${f.location.line} ${f.rule} → ${f.replacement ?? '(none)'}`);

describe('suggested replacement lines', () => {
  it('a /1 joined from a slash and a version constant is fixed where the version is defined', async () => {
    const python = [
      'import requests',
      '',
      'API_VERSION = "1"',
      '',
      'def checkout_url(base):',
      '    return base + "/" + API_VERSION + "/checkout"',
      '',
    ].join('\n');
    // Reported where the version is defined too, since that is where the edit lands.
    expect(shown(await checkSource(python, 'client.py'))).toEqual([
      '3 PO101 → API_VERSION = "v2/api"',
      '6 PO101 → API_VERSION = "v2/api"',
    ]);
    const js =
      "const VERSION = '1';\nexport const checkout = (base) => base + '/' + VERSION + '/checkout';\n";
    expect(shown(await checkSource(js, 'client.js'))).toEqual(["2 PO101 → const VERSION = 'v2/api';"]);
  });

  it('a line that would not parse is not offered, and the fix says why; a fragment that parses as before is', async () => {
    const text = 'r = post(url, json={"user_name": u})\nr = post(\n    url,\n)\n';
    const at = (needle: string) => text.indexOf(needle);
    const hit = (start: number, end: number, replacement: string): Hit => ({
      rule: 'PO102',
      at: start,
      severity: 'error',
      message: 'user_name in the token request',
      fix: 'rename user_name → username',
      edit: { start, end, text: replacement },
    });
    const errors = syntaxErrors(await parserFor('python'), 'python');
    // A broken edit: the key loses its closing quote.
    const broken = toFindings([hit(at('user_name'), at('user_name') + 10, 'username')], text, 'a.py', errors);
    expect(broken[0]!.replacement).toBeUndefined();
    expect(broken[0]!.fix).toBe(`rename user_name → username (${NO_REPLACEMENT})`);
    // The first line of a call, on its own, is a fragment: a rename in it is still offered.
    const fragment = toFindings([hit(at('post(\n'), at('post(\n') + 4, 'send')], text, 'a.py', errors);
    expect(fragment[0]!.replacement).toBe('r = send(');
    expect(fragment[0]!.fix).toBe('rename user_name → username');
  });
});
