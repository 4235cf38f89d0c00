// @step print {"effort": 6, "after": ["parse"], "todo": "print(ast): text that parses back to the same AST"}
export function print(ast) {
  switch (ast.type) {
    case 'num':
      return String(ast.value);
    case 'str':
      return `'${ast.value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    case 'var':
      return ast.name;
    case 'call':
      return `${ast.name}(${ast.args.map(print).join(', ')})`;
    case 'unary': {
      const inner = print(ast.arg);
      return ast.arg.type === 'unary' || ast.arg.type === 'binary' ? `${ast.op}(${inner})` : `${ast.op}${inner}`;
    }
    case 'binary':
      return `(${print(ast.left)} ${ast.op} ${print(ast.right)})`;
    default:
      throw new TypeError(`unknown node ${ast.type}`);
  }
}
// @end
