// Loads the rule modules outside any test: a mutant of a module-level constant is then covered
// statically, whichever test file is the first to import the module (test/mutation/vitest.config.ts).
import '../../src/migrate/config-files.js';
import '../../src/migrate/evidence.js';
import '../../src/migrate/gate.js';
import '../../src/migrate/syntax/addresses.js';
import '../../src/migrate/syntax/amounts.js';
import '../../src/migrate/syntax/checks.js';
import '../../src/migrate/syntax/facts.js';
import '../../src/migrate/syntax/reads.js';
import '../../src/migrate/syntax/values.js';
