/**
 * The entry point of the standalone executable (.ci/sea.mjs builds it): what bin/payorder.js is to
 * the npm package, without its two shortcuts. `--version` is answered by the CLI itself, from the
 * version built in. A batch is not restarted with the launcher's memory settings: an executable
 * takes Node flags only from its build configuration, where they would apply to every command and
 * slow every start-up by more than half (measured on --help). A batch runs with Node's defaults:
 * the same results, more memory.
 */
import { main } from './main.js';

process.exitCode = await main(process.argv);
