/**
 * The argument migrate-check's worker threads are started with (pool.ts). A worker runs the CLI's
 * bundle as it is, which loads the grammar checks only when told it is one (src/main.ts): the
 * argument says so before anything costly is loaded to find out.
 */
export const SYNTAX_WORKER_ARG = '--payorder-syntax-worker';
