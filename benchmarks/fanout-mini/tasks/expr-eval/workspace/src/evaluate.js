// @step evaluate
// TODO: evaluate(ast, { vars, functions })
// @end
