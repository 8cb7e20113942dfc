/** The entry of migrate-check's worker threads (dist/syntax-worker.cjs): serves the grammar checks. */
import { serve } from './pool.js';

serve();
