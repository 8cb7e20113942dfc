/**
 * The entry point of the standalone executable (.ci/sea.mjs builds it): what bin/payorder.js is to
 * the npm package. `--version` is answered by the CLI itself, from the version built in; the code
 * cache is the executable's own (the build's useCodeCache), not Node's compile cache.
 */
import { main } from './main.js';

process.exitCode = await main(process.argv);
