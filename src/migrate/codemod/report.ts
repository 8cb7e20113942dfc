/**
 * What migrate-check --fix says about the codemod: the unified diff of every unit it can fix (on
 * stdout, the data), and per file what was changed and what is left for a person, and per unit
 * what blocked it (on stderr). Text from the files is escaped on a terminal.
 */
import type { Context } from '../../context.js';
import { note } from '../../terminal/messages.js';
import { escapeControl } from '../../terminal/terminal-text.js';
import { unifiedDiff } from './diff.js';
import type { UnitPlan } from './plan.js';

export function renderCodemod(
  units: UnitPlan[],
  mode: { write: boolean; written: boolean },
  ctx: Context,
): void {
  const shown = (text: string) => (ctx.io.stdoutIsTTY ? escapeControl(text, { keepNewlines: true }) : text);
  for (const unit of units) {
    if (unit.blocked.length > 0) {
      note(
        ctx,
        escapeControl(
          `${unit.root}: not changed: every error must be fixed for a unit to be changed, and these are not:`,
        ),
      );
      for (const line of unit.blocked) note(ctx, `  ${escapeControl(line)}`);
      continue;
    }
    for (const file of unit.files) {
      if (!mode.write) ctx.io.stdout.write(shown(unifiedDiff(file.file, file.before, file.after)));
      note(ctx, escapeControl(`${mode.written ? 'changed' : 'would change'} ${file.file}:`));
      for (const change of file.changes) note(ctx, `  ${escapeControl(change)}`);
      for (const left of file.notes) note(ctx, `  left for you: ${escapeControl(left)}`);
    }
    for (const finding of unit.remaining)
      note(
        ctx,
        escapeControl(
          `  left for you: ${finding.location.file}:${finding.location.line ?? 1}: ${finding.rule} ${finding.message}`,
        ),
      );
  }
  if (mode.written)
    note(ctx, 'the files were changed in place: git diff shows the change, git checkout -- FILE undoes it');
}
