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

  // @step parse-primary {"effort": 8, "after": ["tokenize"], "todo": "parsePrimary(): literals, variables, calls, parentheses"}
  parsePrimary() {
    const t = this.next();
    if (t.type === 'num') return { type: 'num', value: t.value };
    if (t.type === 'str') return { type: 'str', value: t.value };
    if (t.type === 'ident') {
      if (!this.isOp('(')) return { type: 'var', name: t.value };
      this.next();
      const args = [];
      if (!this.isOp(')')) {
        args.push(this.parseExpression(0));
        while (this.isOp(',')) {
          this.next();
          args.push(this.parseExpression(0));
        }
      }
      this.expect(')');
      return { type: 'call', name: t.value, args };
    }
    if (t.type === 'op' && t.value === '(') {
      const inner = this.parseExpression(0);
      this.expect(')');
      return inner;
    }
    throw new SyntaxError(`unexpected ${t.value ?? 'end of input'} at ${t.pos}`);
  }
  // @end

  // @step parse-unary {"effort": 5, "after": ["parse-primary"], "todo": "parseUnary(): - and ! prefixes, then ^ (right-associative)"}
  parseUnary() {
    if (this.isOp('-') || this.isOp('!')) {
      const op = this.next().value;
      return { type: 'unary', op, arg: this.parseUnary() };
    }
    const base = this.parsePrimary();
    if (this.isOp('^')) {
      this.next();
      return { type: 'binary', op: '^', left: base, right: this.parseUnary() };
    }
    return base;
  }
  // @end

  // @step parse-binary {"effort": 9, "after": ["parse-unary"], "todo": "parseExpression(level): left-associative binary levels"}
  parseExpression(level) {
    if (level >= LEVELS.length) return this.parseUnary();
    let left = this.parseExpression(level + 1);
    for (;;) {
      const t = this.peek();
      if (t.type !== 'op' || !LEVELS[level].includes(t.value)) return left;
      this.next();
      left = { type: 'binary', op: t.value, left, right: this.parseExpression(level + 1) };
    }
  }
  // @end
}

// @step parse {"effort": 3, "after": ["parse-binary"], "todo": "parse(text): the AST of a whole expression"}
export function parse(text) {
  const parser = new Parser(text);
  const ast = parser.parseExpression(0);
  const rest = parser.peek();
  if (rest.type !== 'eof') throw new SyntaxError(`unexpected ${rest.value} at ${rest.pos}`);
  return ast;
}
// @end
