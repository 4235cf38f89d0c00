// wc-mini's main program, independent of the process for testing.
import * as args from './args.js';
import * as count from './count.js';
import * as format from './format.js';

// @step cli-run
// TODO: run(argv, io): { stdout, stderr, code }
// @end
