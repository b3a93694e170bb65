// The CEL abstract syntax tree the parser builds and the evaluator walks. Nodes are immutable
// once the program is compiled; each node records its depth (bounded at parse time, so walking
// the tree recursively is safe) and its byte offset in the source for error messages.
#pragma once

#include "runtime/cel/value.h"

#include <memory>
#include <string>
#include <vector>

namespace re2 {
class RE2;
}

namespace capstan::cel {

enum class ExprKind {
  Literal,    // literal
  Ident,      // name
  Select,     // target.name (test_only: has(target.name))
  Index,      // target[args[0]]
  Call,       // name(args) or target.name(args)
  CreateList, // [args...]
  CreateMap,  // {args[0]: args[1], args[2]: args[3], ...}
  Cond,       // args[0] ? args[1] : args[2]
  And,        // args[0] && args[1]
  Or,         // args[0] || args[1]
  Not,        // !args[0]
  Neg,        // -args[0]
  Binary,     // args[0] <op> args[1]
  Macro,      // target.<macro>(var, args...)
};

enum class BinaryOp { Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge, In };
enum class MacroKind { All, Exists, ExistsOne, Map, MapFilter, Filter };

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  ExprKind kind = ExprKind::Literal;
  int offset = 0;  // byte offset in the source
  int depth = 1;
  Value literal;
  std::string name;  // identifier, field, function or macro variable
  ExprPtr target;    // receiver of Select, Index, member Call and Macro
  std::vector<ExprPtr> args;
  BinaryOp op = BinaryOp::Add;
  MacroKind macro = MacroKind::All;
  bool test_only = false;                 // Select built by has()
  std::shared_ptr<const re2::RE2> regex;  // matches() with a literal pattern, compiled once
};

}  // namespace capstan::cel
