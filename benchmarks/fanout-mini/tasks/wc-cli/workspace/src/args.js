// Command-line parsing for wc-mini.

// @step parse-args
// TODO: parseArgs(argv): { fields, files }, or an Error with invalidOption
// @end
