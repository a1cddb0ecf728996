# compiler/codegen.mk: AST -> C code generation, ncsim compile and ncsim run.
