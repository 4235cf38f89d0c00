// The built-in function library.
import * as evaluate from './evaluate.js';
import * as parser from './parser.js';

// @step fn-math {"effort": 5, "todo": "mathFunctions(): abs, min, max, round, sqrt"}
export function mathFunctions() {
  return {
    abs: (x) => Math.abs(x),
    min: (...xs) => Math.min(...xs),
    max: (...xs) => Math.max(...xs),
    round: (x, digits = 0) => {
      const f = 10 ** digits;
      return Math.round(x * f) / f;
    },
    sqrt: (x) => Math.sqrt(x),
  };
}
// @end

// @step fn-string {"effort": 5, "todo": "stringFunctions(): len, upper, lower, substr, concat"}
export function stringFunctions() {
  return {
    len: (s) => String(s).length,
    upper: (s) => String(s).toUpperCase(),
    lower: (s) => String(s).toLowerCase(),
    substr: (s, start, length) => String(s).slice(start, length === undefined ? undefined : start + length),
    concat: (...parts) => parts.map(String).join(''),
  };
}
// @end

// @step fn-conv {"effort": 4, "todo": "convFunctions(): num, str, bool"}
export function convFunctions() {
  return {
    num: (x) => {
      const n = Number(x);
      if (Number.isNaN(n)) throw new RangeError(`not a number: ${x}`);
      return n;
    },
    str: (x) => String(x),
    bool: (x) => Boolean(x),
  };
}
// @end

// @step calculate {"effort": 3, "after": ["evaluate", "fn-math", "fn-string", "fn-conv"], "todo": "calculate(text, vars): parse and evaluate with the library"}
export function calculate(text, vars = {}) {
  const functions = { ...mathFunctions(), ...stringFunctions(), ...convFunctions() };
  return evaluate.evaluate(parser.parse(text), { vars, functions });
}
// @end
