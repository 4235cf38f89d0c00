// A precedence-climbing parser over the lexer's tokens.
import * as lexer from './lexer.js';

const LEVELS = [['||'], ['&&'], ['==', '!='], ['<', '<=', '>', '>='], ['+', '-'], ['*', '/', '%']];

class Parser {
  constructor(text) {
    this.tokens = lexer.tokenize(text);
    this.pos = 0;
  }

  peek() {
    return this.tokens[this.pos];
  }

  next() {
    return this.tokens[this.pos++];
  }

  isOp(value) {
    const t = this.peek();
    return t.type === 'op' && t.value === value;
  }

  expect(value) {
    const t = this.next();
    if (t.type !== 'op' || t.value !== value) throw new SyntaxError(`expected ${value} at ${t.pos}`);
    return t;
  }

  // @step parse-primary
  // TODO: parsePrimary(): literals, variables, calls, parentheses
  // @end

  // @step parse-unary
  // TODO: parseUnary(): - and ! prefixes, then ^ (right-associative)
  // @end

  // @step parse-binary
  // TODO: parseExpression(level): left-associative binary levels
  // @end
}

// @step parse
// TODO: parse(text): the AST of a whole expression
// @end
