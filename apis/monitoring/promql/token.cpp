#include "apis/monitoring/promql/token.h"

#include "apis/monitoring/promql/strings.h"

namespace capstan::promql {

bool is_aggregator(Tok t) { return t >= Tok::kSum && t <= Tok::kQuantile; }
bool is_aggregator_with_param(Tok t) {
  return t == Tok::kTopk || t == Tok::kBottomk || t == Tok::kCountValues || t == Tok::kQuantile;
}
bool is_comparison(Tok t) { return t >= Tok::kEqlc && t <= Tok::kGte; }
bool is_set_operator(Tok t) { return t == Tok::kLand || t == Tok::kLor || t == Tok::kLunless; }
bool is_binary_operator(Tok t) {
  return (t >= Tok::kAdd && t <= Tok::kGte) || is_set_operator(t);
}

std::string_view operator_text(Tok t) {
  switch (t) {
    case Tok::kAdd: return "+";
    case Tok::kSub: return "-";
    case Tok::kMul: return "*";
    case Tok::kDiv: return "/";
    case Tok::kMod: return "%";
    case Tok::kPow: return "^";
    case Tok::kAtan2: return "atan2";
    case Tok::kEqlc: return "==";
    case Tok::kNeq: return "!=";
    case Tok::kLss: return "<";
    case Tok::kLte: return "<=";
    case Tok::kGtr: return ">";
    case Tok::kGte: return ">=";
    case Tok::kLand: return "and";
    case Tok::kLor: return "or";
    case Tok::kLunless: return "unless";
    case Tok::kEqlRegex: return "=~";
    case Tok::kNeqRegex: return "!~";
    case Tok::kAt: return "@";
    case Tok::kSum: return "sum";
    case Tok::kAvg: return "avg";
    case Tok::kCount: return "count";
    case Tok::kMin: return "min";
    case Tok::kMax: return "max";
    case Tok::kGroup: return "group";
    case Tok::kStddev: return "stddev";
    case Tok::kStdvar: return "stdvar";
    case Tok::kTopk: return "topk";
    case Tok::kBottomk: return "bottomk";
    case Tok::kCountValues: return "count_values";
    case Tok::kQuantile: return "quantile";
    default: return "";
  }
}

namespace {

// Item.String() for a value token: %q, or %.10q... when longer than ten bytes.
std::string value_string(std::string_view v) {
  if (v.size() <= 10) return go_quote(v);
  std::size_t i = 0;
  for (int runes = 0; runes < 10 && i < v.size(); ++runes) decode_utf8(v, i);
  return go_quote(v.substr(0, i)) + "...";
}

}  // namespace

std::string describe(const Token& t) {
  switch (t.type) {
    case Tok::kEof: return "end of input";
    case Tok::kError: return t.text;
    case Tok::kIdentifier: return "identifier " + go_quote(t.text);
    case Tok::kMetricIdentifier: return "metric identifier " + go_quote(t.text);
    case Tok::kNumber: return "number " + value_string(t.text);
    case Tok::kString: return "string " + value_string(t.text);
    case Tok::kDuration: return "duration " + value_string(t.text);
    case Tok::kBool:
    case Tok::kBy:
    case Tok::kWithout:
    case Tok::kOn:
    case Tok::kIgnoring:
    case Tok::kGroupLeft:
    case Tok::kGroupRight:
    case Tok::kOffset: return "<" + t.text + ">";
    default: break;
  }
  if (is_aggregator(t.type)) return "<aggr:" + t.text + ">";
  // 2.42 has no string for AT in ItemTypeStr, so its description prints the item type's number.
  if (t.type == Tok::kAt) return "\"<Item 57385>\" <op:" + t.text + ">";
  if (is_binary_operator(t.type) || t.type == Tok::kAt || t.type == Tok::kEqlRegex || t.type == Tok::kNeqRegex)
    return "<op:" + t.text + ">";
  return value_string(t.text);
}

}  // namespace capstan::promql
