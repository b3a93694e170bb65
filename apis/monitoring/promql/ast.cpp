#include "apis/monitoring/promql/ast.h"

#include "apis/monitoring/promql/functions.h"
#include "apis/monitoring/promql/number.h"
#include "apis/monitoring/promql/strings.h"

#include <cstdio>

namespace capstan::promql {

std::string_view documented_type(ValueType t) {
  switch (t) {
    case ValueType::kScalar: return "scalar";
    case ValueType::kVector: return "instant vector";
    case ValueType::kMatrix: return "range vector";
    case ValueType::kString: return "string";
    case ValueType::kNone: break;
  }
  return "none";
}

std::string_view type_name(ValueType t) {
  switch (t) {
    case ValueType::kScalar: return "scalar";
    case ValueType::kVector: return "vector";
    case ValueType::kMatrix: return "matrix";
    case ValueType::kString: return "string";
    case ValueType::kNone: break;
  }
  return "none";
}

std::string_view match_op_text(MatchOp op) {
  switch (op) {
    case MatchOp::kEqual: return "=";
    case MatchOp::kNotEqual: return "!=";
    case MatchOp::kRegex: return "=~";
    case MatchOp::kNotRegex: return "!~";
  }
  return "=";
}

ValueType Node::type() const {
  switch (kind) {
    case NodeKind::kNumber: return ValueType::kScalar;
    case NodeKind::kString: return ValueType::kString;
    case NodeKind::kVectorSelector:
    case NodeKind::kAggregate: return ValueType::kVector;
    case NodeKind::kMatrixSelector:
    case NodeKind::kSubquery: return ValueType::kMatrix;
    case NodeKind::kCall: return func ? func->returns : ValueType::kNone;
    case NodeKind::kBinary:
      return children[0]->type() == ValueType::kScalar && children[1]->type() == ValueType::kScalar ? ValueType::kScalar
                                                                                                    : ValueType::kVector;
    case NodeKind::kUnary:
    case NodeKind::kParen: return children[0]->type();
  }
  return ValueType::kNone;
}

namespace {

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i];
  return out;
}

// " @ 123.000", " @ start()", then " offset 5m" / " offset -5m".
std::string modifiers(const Node& n) {
  std::string out;
  if (n.at == AtKind::kTimestamp) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " @ %.3f", n.at_seconds);
    out += buf;
  } else if (n.at == AtKind::kStart) {
    out += " @ start()";
  } else if (n.at == AtKind::kEnd) {
    out += " @ end()";
  }
  if (n.offset_ms > 0) out += " offset " + format_duration(n.offset_ms);
  if (n.offset_ms < 0) out += " offset -" + format_duration(-n.offset_ms);
  return out;
}

std::string selector(const Node& n) {
  std::string out = n.text;
  if (!n.matchers.empty() || n.text.empty()) {
    out += "{";
    for (std::size_t i = 0; i < n.matchers.size(); ++i)
      out += (i ? ", " : "") + n.matchers[i].name + std::string(match_op_text(n.matchers[i].op)) + go_quote(n.matchers[i].value);
    out += "}";
  }
  return out;
}

}  // namespace

std::string Node::str() const {
  switch (kind) {
    case NodeKind::kNumber: return format_number(number);
    case NodeKind::kString: return go_quote(text);
    case NodeKind::kVectorSelector: return selector(*this) + modifiers(*this);
    case NodeKind::kMatrixSelector: {
      const Node& vs = *children[0];
      return selector(vs) + "[" + format_duration(range_ms) + "]" + modifiers(vs);
    }
    case NodeKind::kSubquery:
      return children[0]->str() + "[" + format_duration(range_ms) + ":" + (step_ms ? format_duration(step_ms) : "") + "]" +
             modifiers(*this);
    case NodeKind::kCall: {
      std::string out = func ? std::string(func->name) : "";
      out += "(";
      for (std::size_t i = 0; i < children.size(); ++i) out += (i ? ", " : "") + children[i]->str();
      return out + ")";
    }
    case NodeKind::kAggregate: {
      std::string out(operator_text(op));
      if (without) out += " without (" + join(grouping) + ") ";
      else if (!grouping.empty()) out += " by (" + join(grouping) + ") ";
      out += "(";
      if (has_param) out += children[0]->str() + ", ";
      return out + children.back()->str() + ")";
    }
    case NodeKind::kBinary: {
      std::string out = children[0]->str() + " " + std::string(operator_text(op));
      if (return_bool) out += " bool";
      if (on || !matching_labels.empty()) {
        out += std::string(on ? " on" : " ignoring") + " (" + join(matching_labels) + ")";
        if (card == Cardinality::kManyToOne || card == Cardinality::kOneToMany)
          out += std::string(card == Cardinality::kManyToOne ? " group_left" : " group_right") + " (" + join(include) + ")";
      }
      return out + " " + children[1]->str();
    }
    case NodeKind::kUnary: return std::string(operator_text(op)) + children[0]->str();
    case NodeKind::kParen: return "(" + children[0]->str() + ")";
  }
  return {};
}

}  // namespace capstan::promql
