#include "apis/monitoring/promql/tests/generator.h"

#include "apis/monitoring/promql/ast.h"
#include "apis/monitoring/promql/functions.h"

#include <random>
#include <set>

namespace capstan::promql::testing {
namespace {

// An operand of each type, with a few spellings each.
std::string operand(ValueType t, int variant = 0) {
  switch (t) {
    case ValueType::kScalar: return variant % 2 ? "scalar(up)" : "1";
    case ValueType::kVector: return variant % 2 ? "sum(up)" : "up{job=\"api\"}";
    case ValueType::kMatrix: return variant % 2 ? "up[5m:1m]" : "http_requests_total[5m]";
    case ValueType::kString: return "\"text\"";
    case ValueType::kNone: break;
  }
  return "";
}

constexpr ValueType kTypes[] = {ValueType::kScalar, ValueType::kVector, ValueType::kMatrix, ValueType::kString};

void functions(std::vector<std::string>& out) {
  for (const auto& f : promql::functions()) {
    std::string name(f.name);
    std::vector<std::string> right;
    for (std::size_t i = 0; i < f.args.size(); ++i) right.push_back(operand(f.args[i], static_cast<int>(i)));
    if (f.name == "label_replace") right = {"up", "\"dst\"", "\"$1\"", "\"src\"", "\"(.*)\""};
    if (f.name == "label_join") right = {"up", "\"dst\"", "\",\"", "\"a\"", "\"b\""};
    auto call = [&](const std::vector<std::string>& args) {
      std::string s = name + "(";
      for (std::size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
      return s + ")";
    };
    out.push_back(call(right));
    out.push_back(call({}));
    auto more = right;
    more.push_back(operand(f.args.empty() ? ValueType::kVector : f.args.back()));
    out.push_back(call(more));
    if (!right.empty()) {
      auto fewer = right;
      fewer.pop_back();
      out.push_back(call(fewer));
    }
    for (std::size_t i = 0; i < f.args.size(); ++i)
      for (ValueType t : kTypes) {
        if (t == f.args[i]) continue;
        auto wrong = right;
        wrong[i] = operand(t);
        out.push_back(call(wrong));
      }
  }
  for (const char* unknown : {"histogram_avg(up)", "histogram_stddev(up)", "histogram_stdvar(up)", "sort_by_label(up, \"a\")",
                              "sort_by_label_desc(up, \"a\")", "mad_over_time(up[5m])", "limitk(2, up)", "limit_ratio(0.5, up)",
                              "info(up)", "double_exponential_smoothing(up[5m], 0.5, 0.5)", "RATE(up[5m])", "Abs(up)",
                              "nonexistent(up)", "foo:bar(up)", "start()", "end()", "offset(up)"})
    out.push_back(unknown);
}

void aggregations(std::vector<std::string>& out) {
  const char* ops[] = {"sum", "avg", "count", "min", "max", "group", "stddev", "stdvar", "topk", "bottomk", "quantile", "count_values"};
  const char* modifiers[] = {"", " by (job)", " without (job)", " by ()", " by (job, instance,)", " BY (on, by, group_left)"};
  for (const char* op : ops) {
    std::string o = op;
    bool param = o == "topk" || o == "bottomk" || o == "quantile" || o == "count_values";
    std::string p = o == "count_values" ? "\"value\"" : o == "quantile" ? "0.9" : "3";
    std::string args = param ? p + ", up" : "up";
    for (const char* m : modifiers) {
      out.push_back(o + m + " (" + args + ")");
      out.push_back(o + "(" + args + ")" + m);
    }
    out.push_back(o + "()");
    out.push_back(o + "(up, up, up)");
    out.push_back(o + " by (job) (" + args + ") by (job)");
    out.push_back(o + "(" + args + ") by");
    out.push_back(o + " by job (" + args + ")");
    out.push_back(o + " by (job:sub) (" + args + ")");
    out.push_back(o + " by (without) (" + args + ")");
    for (ValueType t : kTypes) {
      out.push_back(param ? o + "(" + p + ", " + operand(t) + ")" : o + "(" + operand(t) + ")");
      if (param) out.push_back(o + "(" + operand(t) + ", up)");
    }
    if (param) out.push_back(o + "(up)");
  }
}

void binaries(std::vector<std::string>& out) {
  const char* ops[] = {"+", "-", "*", "/", "%", "^", "atan2", "==", "!=", "<", "<=", ">", ">=", "and", "or", "unless"};
  const char* modifiers[] = {"bool", "on(job)", "ignoring(job)", "on(job) group_left(instance)", "ignoring(job) group_right",
                             "on()", "on(job) group_left(job)", "bool on(job)", "on(job) bool", "group_left"};
  for (const char* op : ops) {
    for (ValueType l : kTypes)
      for (ValueType r : kTypes) out.push_back(operand(l) + " " + op + " " + operand(r));
    for (const char* m : modifiers) {
      out.push_back(std::string("up ") + op + " " + m + " process_start_time_seconds");
      out.push_back(std::string("1 ") + op + " " + m + " up");
    }
    out.push_back(std::string("1 ") + op + " bool 2");
    out.push_back(std::string("up ") + op);
    out.push_back(std::string(op) + " up");
  }
  // Precedence and associativity: every pair of operator classes.
  const char* classes[] = {"or", "and", "==", "+", "*", "^"};
  for (const char* a : classes)
    for (const char* b : classes) {
      out.push_back(std::string("a ") + a + " b " + b + " c");
      out.push_back(std::string("1 ") + a + " 2 " + b + " 3");
      out.push_back(std::string("-a ") + a + " b " + b + " -1");
    }
}

void selectors(std::vector<std::string>& out) {
  const char* ops[] = {"=", "!=", "=~", "!~"};
  const char* values[] = {"\"\"", "\"x\"", "\".*\"", "\".+\"", "\"x|\"", "'single'", "`raw`", "\"(\"", "\"[a-\"", "\"a{3,2}\"",
                          "\"\\\\d+\"", "\"\\\\C\"", "\"(?P<n>x)\"", "\"(?i)Api\"", "\"\\\\p{Greek}\"", "\"x**\""};
  for (const char* op : ops)
    for (const char* v : values) {
      out.push_back(std::string("up{job") + op + v + "}");
      out.push_back(std::string("{job") + op + v + "}");
    }
  for (const char* name : {"sum", "by", "without", "and", "or", "unless", "offset", "start", "end", "on", "ignoring", "bool", "group_left",
                           "atan2", "inf", "nan", "count_values", "topk", "foo:bar", ":foo", "foo_bar1", "_x", "a.b", "1a"}) {
    out.push_back(name);
    out.push_back(std::string(name) + "{job=\"x\"}");
    out.push_back(std::string(name) + "[5m]");
    out.push_back(std::string("x{") + name + "=\"1\"}");
  }
  for (const char* d : {"1ms", "5s", "5m", "1h30m", "2d", "1w", "1y", "1y2w3d4h5m6s7ms", "0s", "0", "5", "1.5m", "1m1h", "5ms1s",
                        "300y", "292y", "99999999999999999999s", "5M", "5mm", "x", "", " 5m ", "5m:", "5m:1m", "5m:0s", "5m:1m:",
                        "5m:1", "5m x", "5m:x", "1h:30s", "1d:1h"}) {
    out.push_back(std::string("up[") + d + "]");
    out.push_back(std::string("sum(up)[") + d + "]");
  }
  for (const char* m : {"offset 5m", "offset -5m", "offset 0s", "offset 5", "offset", "offset 1h offset 1m", "@ 100", "@ -100",
                        "@ 1.5e9", "@ 1e19", "@ start()", "@ end()", "@ start", "@ now()", "@ 100 @ 200", "@ 100 offset 5m",
                        "offset 5m @ 100", "@ Inf", "@ +10", "@ 0x10"}) {
    out.push_back(std::string("up ") + m);
    out.push_back(std::string("up[5m] ") + m);
    out.push_back(std::string("up[5m:] ") + m);
    out.push_back(std::string("sum(up) ") + m);
    out.push_back(std::string("up ") + m + " [5m]");
  }
}

void literals(std::vector<std::string>& out) {
  for (const char* n : {"1", "-1", "+1", "1.5", ".5", "5.", "1e3", "1E-3", "1e+3", "0x1F", "0X1f", "0x", "0x1.8", "017", "08", "1e",
                        "1e999", "1e-999", "99999999999999999999", "0xFFFFFFFFFFFFFFFFFF", "Inf", "-Inf", "+inf", "NaN", "nan",
                        "1_000", "1.2.3", "1..2", "5x", "5mx", "5em", "- - 1", "-(1)", "--1", "1 2", "Infinity"})
    out.push_back(n);
  for (const char* s : {"\"a\"", "'a'", "`a`", "\"a\\nb\"", "'a\\'b'", "\"a\\\"b\"", "\"\\x41\"", "\"\\u00e9\"", "\"\\U0001F600\"",
                        "\"\\101\"", "\"\\400\"", "\"\\x4\"", "\"\\xZZ\"", "\"\\uD800\"", "\"\\U00110000\"", "\"\\q\"", "'\\\"'",
                        "\"\\'\"", "\"a", "'a", "`a", "\"\\", "`a\\nb`", "\"é\"", "\"\\a\\b\\f\\r\\t\\v\\\\\""})
    out.push_back(s);
}

// Random well- and ill-typed expressions from a small grammar, then character mutations of them.
class Random {
 public:
  std::string expr(int depth) {
    int pick = static_cast<int>(rng_() % (depth > 3 ? 4 : 11));
    switch (pick) {
      case 0: return leaf_vector();
      case 1: return std::to_string(rng_() % 100);
      case 2: return leaf_vector() + "[" + duration() + "]";
      case 3: return "\"s\"";
      case 4: return expr(depth + 1) + " " + op() + " " + expr(depth + 1);
      case 5: return "(" + expr(depth + 1) + ")";
      case 6: return func() + "(" + expr(depth + 1) + ")";
      case 7: return agg() + "(" + expr(depth + 1) + ")";
      case 8: return "-" + expr(depth + 1);
      case 9: return expr(depth + 1) + "[" + duration() + ":" + (rng_() % 2 ? duration() : "") + "]";
      default: return expr(depth + 1) + (rng_() % 2 ? " offset " + duration() : " @ " + std::to_string(rng_() % 1000));
    }
  }
  std::string mutate(std::string s) {
    if (s.empty()) return s;
    std::size_t at = rng_() % s.size();
    static const char kChars[] = "()[]{}\",=~!:@+-*/^ 5mxby";
    switch (rng_() % 3) {
      case 0: return s.erase(at, 1);
      case 1: return s.insert(at, 1, kChars[rng_() % (sizeof kChars - 1)]);
      default: return s.replace(at, 1, 1, kChars[rng_() % (sizeof kChars - 1)]);
    }
  }

 private:
  std::mt19937 rng_{20240601};
  std::string pick(std::initializer_list<const char*> v) { return *(v.begin() + rng_() % v.size()); }
  std::string leaf_vector() { return pick({"up", "http_requests_total{code=~\"5..\"}", "node_cpu_seconds_total{mode!=\"idle\"}", "{job=\"a\"}"}); }
  std::string duration() { return pick({"5m", "1h", "30s", "1d", "1h30m"}); }
  std::string op() { return pick({"+", "-", "*", "/", "==", "> bool", "and", "or", "unless", "^", "+ on(job)", "/ ignoring(x) group_left"}); }
  std::string func() { return pick({"rate", "abs", "sort", "scalar", "vector", "histogram_count", "absent_over_time", "timestamp"}); }
  std::string agg() { return pick({"sum", "max by (job)", "count without (x)", "group"}); }
};

void random_cases(std::vector<std::string>& out) {
  Random r;
  std::vector<std::string> made;
  for (int i = 0; i < 400; ++i) made.push_back(r.expr(0));
  for (int i = 0; i < 1200; ++i) made.push_back(r.mutate(made[static_cast<std::size_t>(i % 400)]));
  out.insert(out.end(), made.begin(), made.end());
}

}  // namespace

std::vector<std::string> generated_cases() {
  std::vector<std::string> all;
  functions(all);
  aggregations(all);
  binaries(all);
  selectors(all);
  literals(all);
  random_cases(all);
  // Unique, in first-seen order, never empty (promtool refuses an empty expr before parsing it).
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (auto& c : all)
    if (!c.empty() && c.find_first_not_of(' ') != std::string::npos && seen.insert(c).second) out.push_back(std::move(c));
  return out;
}

}  // namespace capstan::promql::testing
