// The tree-walking evaluator. Errors are values (so && / || / ?: can absorb them as CEL's
// commutative logical operators do); every node visited and every macro iteration costs one
// unit, functions add the size of what they scan or build, and exceeding the limit turns the
// whole evaluation into kCostLimitExceeded, never absorbed.
#include "runtime/cel/cel.h"
#include "runtime/cel/functions.h"
#include "runtime/cel/time.h"

#include <cmath>
#include <limits>

namespace capstan::cel {
namespace {

class Evaluator {
 public:
  Evaluator(const Activation& vars, std::int64_t limit) : vars_(vars), limit_(limit) {}

  Value eval(const Expr& e) {
    if (!step(1)) return exceeded();
    switch (e.kind) {
      case ExprKind::Literal: return e.literal;
      case ExprKind::Ident: return ident(e);
      case ExprKind::Select: return select(e);
      case ExprKind::Index: return index(e);
      case ExprKind::Call: return call(e);
      case ExprKind::CreateList: return create_list(e);
      case ExprKind::CreateMap: return create_map(e);
      case ExprKind::Cond: return cond(e);
      case ExprKind::And: return logic(e, false);
      case ExprKind::Or: return logic(e, true);
      case ExprKind::Not: {
        Value v = eval(*e.args[0]);
        if (v.is_error()) return v;
        if (v.kind() != Kind::Bool) return no_such_overload("!_");
        return Value::boolean(!v.as_bool());
      }
      case ExprKind::Neg: return negate(eval(*e.args[0]));
      case ExprKind::Binary: return binary(e);
      case ExprKind::Macro: return macro(e);
    }
    return Value::error("unknown expression");
  }

  std::int64_t cost() const { return cost_ + budget_.spent; }
  bool over() const { return over_; }

 private:
  bool step(std::int64_t n) {
    cost_ += n;
    if (cost_ + budget_.spent > limit_) over_ = true;
    return !over_;
  }
  static Value exceeded() { return Value::error(std::string(kCostLimitExceeded)); }
  Value checked(Value v) {
    // Functions charge the budget; re-check after each call.
    if (!step(0)) return exceeded();
    return v;
  }

  Value ident(const Expr& e) {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
      if (it->first == e.name) return *it->second;
    auto v = vars_.find(e.name);
    if (v != vars_.end()) return v->second;
    static const char* kTypes[] = {"int", "uint", "double", "string", "bool", "bytes", "list", "map", "null_type", "type"};
    for (const char* t : kTypes)
      if (e.name == t) return Value::type(t);
    if (e.name == "google.protobuf.Duration" || e.name == "google.protobuf.Timestamp") return Value::type(e.name);
    return Value::error("no such attribute: " + e.name);
  }

  Value select(const Expr& e) {
    Value t = eval(*e.target);
    if (t.is_error()) return t;
    if (t.kind() != Kind::Map) {
      return Value::error("type '" + std::string(t.type_name()) + "' does not support field selection");
    }
    const Value* v = map_find(t.as_map(), Value::string(e.name));
    if (e.test_only) return Value::boolean(v != nullptr);
    if (!v) return Value::error("no such key: " + e.name);
    return *v;
  }

  Value index(const Expr& e) {
    Value t = eval(*e.target);
    if (t.is_error()) return t;
    Value i = eval(*e.args[0]);
    if (i.is_error()) return i;
    if (t.kind() == Kind::List) {
      const auto& l = t.as_list();
      std::int64_t n;
      if (i.kind() == Kind::Int) n = i.as_int();
      else if (i.kind() == Kind::Uint && i.as_uint() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) n = static_cast<std::int64_t>(i.as_uint());
      else if (i.kind() == Kind::Double && i.as_double() == std::trunc(i.as_double()) && std::fabs(i.as_double()) < 9e18) n = static_cast<std::int64_t>(i.as_double());
      else return Value::error("unsupported index type '" + std::string(i.type_name()) + "' in list");
      if (n < 0 || n >= static_cast<std::int64_t>(l.size()))
        return Value::error("index out of bounds: " + std::to_string(n));
      return l[static_cast<std::size_t>(n)];
    }
    if (t.kind() == Kind::Map) {
      const Value* v = map_find(t.as_map(), i);
      if (!v) {
        std::string key = i.kind() == Kind::String ? i.as_string() : json::serialize(i.to_json());
        return Value::error("no such key: " + key);
      }
      return *v;
    }
    return no_such_overload("_[_]");
  }

  Value call(const Expr& e) {
    std::optional<Value> target;
    if (e.target) {
      target = eval(*e.target);
      if (target->is_error()) return *target;
    }
    std::vector<Value> args;
    args.reserve(e.args.size());
    for (const auto& a : e.args) {
      args.push_back(eval(*a));
      if (args.back().is_error()) return args.back();
    }
    return checked(call_function(e.name, target ? &*target : nullptr, args, e.regex.get(), budget_));
  }

  Value create_list(const Expr& e) {
    List l;
    l.reserve(e.args.size());
    for (const auto& a : e.args) {
      l.push_back(eval(*a));
      if (l.back().is_error()) return l.back();
    }
    return Value::list(std::move(l));
  }

  Value create_map(const Expr& e) {
    Map m;
    for (std::size_t i = 0; i + 1 < e.args.size(); i += 2) {
      Value k = eval(*e.args[i]);
      if (k.is_error()) return k;
      Kind kk = k.kind();
      if (kk != Kind::String && kk != Kind::Int && kk != Kind::Uint && kk != Kind::Bool)
        return Value::error("unsupported key type: " + std::string(k.type_name()));
      Value v = eval(*e.args[i + 1]);
      if (v.is_error()) return v;
      if (map_find(m, k)) return Value::error("Failed with repeated key");
      m.emplace(std::move(k), std::move(v));
    }
    return Value::map(std::move(m));
  }

  Value cond(const Expr& e) {
    Value c = eval(*e.args[0]);
    if (c.is_error()) return c;
    if (c.kind() != Kind::Bool) return no_such_overload("_?_:_");
    return eval(*e.args[c.as_bool() ? 1 : 2]);
  }

  // && (is_or false) and || (is_or true): a decisive operand wins over an error on either side.
  Value logic(const Expr& e, bool is_or) {
    Value l = eval(*e.args[0]);
    if (over_) return exceeded();
    if (l.kind() == Kind::Bool && l.as_bool() == is_or) return l;
    Value r = eval(*e.args[1]);
    if (over_) return exceeded();
    if (r.kind() == Kind::Bool && r.as_bool() == is_or) return r;
    if (l.is_error()) return l;
    if (r.is_error()) return r;
    if (l.kind() != Kind::Bool || r.kind() != Kind::Bool) return no_such_overload(is_or ? "_||_" : "_&&_");
    return Value::boolean(!is_or);
  }

  static Value negate(const Value& v) {
    switch (v.kind()) {
      case Kind::Error: return v;
      case Kind::Int:
        if (v.as_int() == std::numeric_limits<std::int64_t>::min()) return Value::error("integer overflow");
        return Value::integer(-v.as_int());
      case Kind::Double: return Value::dbl(-v.as_double());
      case Kind::Duration:
        if (v.as_duration() == std::numeric_limits<std::int64_t>::min()) return Value::error("integer overflow");
        return Value::duration(-v.as_duration());
      default: return no_such_overload("-_");
    }
  }

  Value binary(const Expr& e) {
    Value l = eval(*e.args[0]);
    if (l.is_error()) return l;
    Value r = eval(*e.args[1]);
    if (r.is_error()) return r;
    switch (e.op) {
      case BinaryOp::Eq: return Value::boolean(equals(l, r));
      case BinaryOp::Ne: return Value::boolean(!equals(l, r));
      case BinaryOp::Lt:
      case BinaryOp::Le:
      case BinaryOp::Gt:
      case BinaryOp::Ge: {
        auto c = compare(l, r);
        if (!c) return no_such_overload("comparison");
        if (*c == 2) return Value::boolean(false);  // NaN
        bool res = e.op == BinaryOp::Lt ? *c < 0 : e.op == BinaryOp::Le ? *c <= 0 : e.op == BinaryOp::Gt ? *c > 0 : *c >= 0;
        return Value::boolean(res);
      }
      case BinaryOp::In: return in(l, r);
      default: return checked(arith(e.op, l, r));
    }
  }

  Value in(const Value& x, const Value& container) {
    if (container.kind() == Kind::List) {
      const auto& l = container.as_list();
      step(static_cast<std::int64_t>(l.size()));
      for (const auto& v : l)
        if (equals(v, x)) return Value::boolean(true);
      return Value::boolean(false);
    }
    if (container.kind() == Kind::Map) return Value::boolean(map_find(container.as_map(), x) != nullptr);
    return no_such_overload("@in");
  }

  Value arith(BinaryOp op, const Value& l, const Value& r) {
    Kind lk = l.kind(), rk = r.kind();
    if (lk == Kind::Int && rk == Kind::Int) {
      std::int64_t a = l.as_int(), b = r.as_int(), out = 0;
      switch (op) {
        case BinaryOp::Add: if (__builtin_add_overflow(a, b, &out)) return Value::error("integer overflow"); break;
        case BinaryOp::Sub: if (__builtin_sub_overflow(a, b, &out)) return Value::error("integer overflow"); break;
        case BinaryOp::Mul: if (__builtin_mul_overflow(a, b, &out)) return Value::error("integer overflow"); break;
        case BinaryOp::Div:
          if (b == 0) return Value::error("division by zero");
          if (a == std::numeric_limits<std::int64_t>::min() && b == -1) return Value::error("integer overflow");
          out = a / b;
          break;
        case BinaryOp::Mod:
          if (b == 0) return Value::error("modulus by zero");
          if (a == std::numeric_limits<std::int64_t>::min() && b == -1) return Value::error("integer overflow");
          out = a % b;
          break;
        default: return no_such_overload("");
      }
      return Value::integer(out);
    }
    if (lk == Kind::Uint && rk == Kind::Uint) {
      std::uint64_t a = l.as_uint(), b = r.as_uint(), out = 0;
      switch (op) {
        case BinaryOp::Add: if (__builtin_add_overflow(a, b, &out)) return Value::error("unsigned integer overflow"); break;
        case BinaryOp::Sub: if (__builtin_sub_overflow(a, b, &out)) return Value::error("unsigned integer overflow"); break;
        case BinaryOp::Mul: if (__builtin_mul_overflow(a, b, &out)) return Value::error("unsigned integer overflow"); break;
        case BinaryOp::Div: if (b == 0) return Value::error("division by zero"); out = a / b; break;
        case BinaryOp::Mod: if (b == 0) return Value::error("modulus by zero"); out = a % b; break;
        default: return no_such_overload("");
      }
      return Value::uinteger(out);
    }
    if (lk == Kind::Double && rk == Kind::Double) {
      double a = l.as_double(), b = r.as_double();
      switch (op) {
        case BinaryOp::Add: return Value::dbl(a + b);
        case BinaryOp::Sub: return Value::dbl(a - b);
        case BinaryOp::Mul: return Value::dbl(a * b);
        case BinaryOp::Div: return Value::dbl(a / b);
        default: return no_such_overload("_%_");
      }
    }
    if (op == BinaryOp::Add && lk == rk) {
      if (lk == Kind::String) {
        budget_.charge_size(l.as_string().size() + r.as_string().size());
        return Value::string(l.as_string() + r.as_string());
      }
      if (lk == Kind::Bytes) {
        budget_.charge_size(l.as_bytes().size() + r.as_bytes().size());
        return Value::bytes(l.as_bytes() + r.as_bytes());
      }
      if (lk == Kind::List) {
        const auto& a = l.as_list();
        const auto& b = r.as_list();
        step(static_cast<std::int64_t>(a.size() + b.size()));
        if (over_) return exceeded();
        List out(a);
        out.insert(out.end(), b.begin(), b.end());
        return Value::list(std::move(out));
      }
    }
    return time_arith(op, l, r);
  }

  static Value time_arith(BinaryOp op, const Value& l, const Value& r) {
    Kind lk = l.kind(), rk = r.kind();
    std::int64_t out = 0;
    auto overflow = [] { return Value::error("integer overflow"); };
    if (lk == Kind::Duration && rk == Kind::Duration && (op == BinaryOp::Add || op == BinaryOp::Sub)) {
      bool o = op == BinaryOp::Add ? __builtin_add_overflow(l.as_duration(), r.as_duration(), &out)
                                   : __builtin_sub_overflow(l.as_duration(), r.as_duration(), &out);
      return o ? overflow() : Value::duration(out);
    }
    if ((lk == Kind::Timestamp && rk == Kind::Duration && (op == BinaryOp::Add || op == BinaryOp::Sub)) ||
        (lk == Kind::Duration && rk == Kind::Timestamp && op == BinaryOp::Add)) {
      std::int64_t ts = lk == Kind::Timestamp ? l.as_timestamp() : r.as_timestamp();
      std::int64_t d = lk == Kind::Duration ? l.as_duration() : r.as_duration();
      bool o = op == BinaryOp::Add ? __builtin_add_overflow(ts, d, &out) : __builtin_sub_overflow(ts, d, &out);
      if (o || !timestamp_in_range(out)) return Value::error("timestamp overflow");
      return Value::timestamp(out);
    }
    if (lk == Kind::Timestamp && rk == Kind::Timestamp && op == BinaryOp::Sub) {
      if (__builtin_sub_overflow(l.as_timestamp(), r.as_timestamp(), &out)) return overflow();
      return Value::duration(out);
    }
    return no_such_overload("");
  }

  Value macro(const Expr& e) {
    Value range = eval(*e.target);
    if (range.is_error()) return range;
    // Maps iterate over their keys; `range` keeps a list alive while we walk it.
    List keys;
    const List* items = &keys;
    if (range.kind() == Kind::List) {
      items = &range.as_list();
    } else if (range.kind() == Kind::Map) {
      for (const auto& [k, _] : range.as_map()) keys.push_back(k);
    } else {
      return no_such_overload("comprehension range");
    }
    List out;
    std::optional<Value> err;
    std::int64_t count = 0;
    for (const auto& item : *items) {
      if (!step(1)) return exceeded();
      scope_.emplace_back(e.name, &item);
      Value v = eval(*e.args[0]);
      Value mapped;
      if (e.macro == MacroKind::MapFilter && !v.is_error() && v.kind() == Kind::Bool && v.as_bool()) mapped = eval(*e.args[1]);
      scope_.pop_back();
      if (over_) return exceeded();
      switch (e.macro) {
        case MacroKind::All:
        case MacroKind::Exists: {
          bool decisive = e.macro == MacroKind::Exists;
          if (v.kind() == Kind::Bool) {
            if (v.as_bool() == decisive) return Value::boolean(decisive);
          } else if (!err) {
            err = v.is_error() ? v : no_such_overload(e.macro == MacroKind::All ? "all" : "exists");
          }
          break;
        }
        case MacroKind::ExistsOne:
          if (v.is_error()) return v;
          if (v.kind() != Kind::Bool) return no_such_overload("exists_one");
          if (v.as_bool()) ++count;
          break;
        case MacroKind::Map:
          if (v.is_error()) return v;
          out.push_back(std::move(v));
          break;
        case MacroKind::MapFilter:
          if (v.is_error()) return v;
          if (v.kind() != Kind::Bool) return no_such_overload("map");
          if (v.as_bool()) {
            if (mapped.is_error()) return mapped;
            out.push_back(std::move(mapped));
          }
          break;
        case MacroKind::Filter:
          if (v.is_error()) return v;
          if (v.kind() != Kind::Bool) return no_such_overload("filter");
          if (v.as_bool()) out.push_back(item);
          break;
      }
    }
    switch (e.macro) {
      case MacroKind::All: return err ? *err : Value::boolean(true);
      case MacroKind::Exists: return err ? *err : Value::boolean(false);
      case MacroKind::ExistsOne: return Value::boolean(count == 1);
      default: return Value::list(std::move(out));
    }
  }

  const Activation& vars_;
  std::vector<std::pair<std::string_view, const Value*>> scope_;  // macro variables, innermost last
  std::int64_t limit_;
  std::int64_t cost_ = 0;
  bool over_ = false;
  Budget budget_;
};

}  // namespace

EvalResult Program::eval(const Activation& vars, std::int64_t cost_limit) const {
  EvalResult r;
  Evaluator ev(vars, cost_limit < 0 ? limits_.cost_limit : cost_limit);
  Value v = ev.eval(*root_);
  r.cost = ev.cost();
  if (ev.over()) {
    r.cost_exceeded = true;
    r.error = std::string(kCostLimitExceeded);
    return r;
  }
  if (v.is_error()) {
    r.error = v.error_message();
    return r;
  }
  r.value = std::move(v);
  return r;
}

}  // namespace capstan::cel
