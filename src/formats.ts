/**
 * The names of the output formats: what -o accepts and what default-output may store. Only the
 * names: how each format is written is output/'s, and the store checks a stored default against
 * this list without knowing more of output.
 */
export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'tsv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
