/**
 * The codemod's edits located on the syntax tree: a name or prefix is renamed inside the token that
 * holds it (a string's text, a key, a property), never in a comment nor across tokens; a lookup's id
 * is found in the string, concatenation or format call that builds the path, and is the order's uuid
 * only by where its value comes from. Each with the near miss that a text search would get wrong.
 */
import { describe, expect, it } from 'vitest';
import { applyEdits, compatible } from '../../src/migrate/codemod/edits.js';
import { fixSource } from '../../src/migrate/codemod/source-edits.js';
import { ParsedFile } from '../../src/migrate/codemod/tree.js';
import { checkSource } from '../../src/migrate/source.js';
import { type LanguageId, languageOf } from '../../src/migrate/syntax/languages.js';

/** One file's source after the codemod, in memory, with the rules of the findings left. */
async function fixed(file: string, text: string) {
  const language = languageOf(file, text) as LanguageId;
  const findings = await checkSource(text, file);
  const parsed = await ParsedFile.parse(text, language);
  if (!parsed) throw new Error(`${file} does not parse`);
  try {
    const fix = fixSource(parsed, findings, { given: {}, known: [] });
    return {
      text: applyEdits(text, compatible(fix.edits)),
      left: fix.left.map((entry) => `${entry.finding.rule}: ${entry.why}`),
    };
  } finally {
    parsed.delete();
  }
}

describe('renames inside the token that holds the name', () => {
  it.each([
    [
      'token.js',
      "const t = await post(AUTH + '/1/auth/token', { user_name: USER /* user_name */, client_secret_id: S }); // user_name, /1",
      "const t = await post(AUTH + '/v2/api/auth/token', { username: USER /* user_name */, client_secret_id: S }); // user_name, /1",
    ],
    [
      'token.py',
      't = post(AUTH + "/1/auth/token", {"user_name": USER, "client_secret_id": S})  # "user_name", "/1"',
      't = post(AUTH + "/v2/api/auth/token", {"username": USER, "client_secret_id": S})  # "user_name", "/1"',
    ],
    [
      'token.php',
      "<?php\n$t = post($auth . '/1/auth/token', ['user_name' => $user, 'client_secret_id' => $s]); // 'user_name' '/1'",
      "<?php\n$t = post($auth . '/v2/api/auth/token', ['username' => $user, 'client_secret_id' => $s]); // 'user_name' '/1'",
    ],
    [
      'token.rb',
      't = post("#{AUTH}/1/auth/token", { user_name: USER, client_secret_id: S }) # user_name: "/1"',
      't = post("#{AUTH}/v2/api/auth/token", { username: USER, client_secret_id: S }) # user_name: "/1"',
    ],
    [
      'Token.java',
      'class T { String t() { return post(AUTH + "/1/auth/token", "{\\"user_name\\":\\"" + USER + "\\",\\"client_secret_id\\":\\"" + S + "\\"}"); /* "user_name" */ } }',
      'class T { String t() { return post(AUTH + "/v2/api/auth/token", "{\\"username\\":\\"" + USER + "\\",\\"client_secret_id\\":\\"" + S + "\\"}"); /* "user_name" */ } }',
    ],
    [
      'token.go',
      'package main\n\ntype TokenRequest struct {\n\tUser string `json:"user_name"` // json:"user_name"\n\tSecret string `json:"client_secret_id"`\n}\n',
      'package main\n\ntype TokenRequest struct {\n\tUser string `json:"username"` // json:"user_name"\n\tSecret string `json:"client_secret_id"`\n}\n',
    ],
    [
      'token.sh',
      'curl -d \'{"user_name":"\'"$USER"\'","client_secret_id":"\'"$SECRET"\'"}\' "$AUTH/1/auth/token" # "user_name" /1',
      'curl -d \'{"username":"\'"$USER"\'","client_secret_id":"\'"$SECRET"\'"}\' "$AUTH/v2/api/auth/token" # "user_name" /1',
    ],
  ])('%s: the code is renamed, the comment on the same line stays', async (file, text, expected) => {
    const out = await fixed(file, `${text}\n`);
    expect(out.left).toEqual([]);
    expect(out.text).toBe(`${expected}\n`);
  });
});
