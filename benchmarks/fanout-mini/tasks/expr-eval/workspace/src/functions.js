// The built-in function library.
import * as evaluate from './evaluate.js';
import * as parser from './parser.js';

// @step fn-math
// TODO: mathFunctions(): abs, min, max, round, sqrt
// @end

// @step fn-string
// TODO: stringFunctions(): len, upper, lower, substr, concat
// @end

// @step fn-conv
// TODO: convFunctions(): num, str, bool
// @end

// @step calculate
// TODO: calculate(text, vars): parse and evaluate with the library
// @end
