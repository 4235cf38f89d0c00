// @step evaluate {"effort": 10, "after": ["parse"], "todo": "evaluate(ast, { vars, functions })"}
export function evaluate(ast, { vars = {}, functions = {} } = {}) {
  const run = (node) => {
    switch (node.type) {
      case 'num':
      case 'str':
        return node.value;
      case 'var':
        if (!Object.hasOwn(vars, node.name)) throw new ReferenceError(`unknown variable ${node.name}`);
        return vars[node.name];
      case 'call': {
        if (!Object.hasOwn(functions, node.name)) throw new ReferenceError(`unknown function ${node.name}`);
        return functions[node.name](...node.args.map(run));
      }
      case 'unary': {
        const v = run(node.arg);
        return node.op === '-' ? -v : !v;
      }
      case 'binary': {
        if (node.op === '&&') return Boolean(run(node.left)) && Boolean(run(node.right));
        if (node.op === '||') return Boolean(run(node.left)) || Boolean(run(node.right));
        const l = run(node.left);
        const r = run(node.right);
        switch (node.op) {
          case '+':
            return typeof l === 'string' || typeof r === 'string' ? String(l) + String(r) : l + r;
          case '-':
            return l - r;
          case '*':
            return l * r;
          case '/':
          case '%':
            if (r === 0) throw new RangeError('division by zero');
            return node.op === '/' ? l / r : l % r;
          case '^':
            return l ** r;
          case '==':
            return l === r;
          case '!=':
            return l !== r;
          case '<':
            return l < r;
          case '<=':
            return l <= r;
          case '>':
            return l > r;
          case '>=':
            return l >= r;
          default:
            throw new SyntaxError(`unknown operator ${node.op}`);
        }
      }
      default:
        throw new TypeError(`unknown node ${node.type}`);
    }
  };
  return run(ast);
}
// @end
