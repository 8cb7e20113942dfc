/**
 * What the README tells a new user to type to try payorder by hand (outside the long tier, which
 * runs the README's blocks): a sandbox started in the background is quiet, or its request lines and
 * "Press Ctrl-C to stop" would flood the terminal the user goes on typing in.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const README = readFileSync(resolve(import.meta.dirname, '../README.md'), 'utf8');

describe('README', () => {
  it('starts every background sandbox server with --quiet', () => {
    const lines = [...README.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((match) => match[1]!.split('\n'));
    // The server itself (payorder sandbox and its options), not its subcommands (listen, orders).
    const background = lines.filter((line) => /^payorder sandbox( -[^&]*)?&\s*$/.test(line.trim()));
    expect(background.length).toBeGreaterThan(0);
    for (const line of background) expect(line).toContain('--quiet');
  });
});
