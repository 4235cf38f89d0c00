// @step print
// TODO: print(ast): text that parses back to the same AST
// @end
