// AlertmanagerConfig: what would make Alertmanager refuse the configuration an Alertmanager
// merges it into (one bad object would stop every reload), checked at admission and again by the
// controller, which leaves such an object out alone.
#include "apis/monitoring/promql/number.h"
#include "apis/monitoring/promql/regex.h"
#include "apis/monitoring/v1/types.h"
#include "apis/monitoring/v1/validation.h"
#include "runtime/meta/ascii.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

namespace capstan::apis::monitoring::v1 {
namespace {

using validation::Cause;
using validation::FieldPath;

json::Value jstr(std::string_view s) { return json::Value(std::string(s)); }

void matchers(const json::Value& holder, std::string_view key, const FieldPath& path, std::vector<Cause>& out) {
  const json::Array* list = json::get_array(holder, {key});
  if (!list) return;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json::Value& m = (*list)[i];
    FieldPath p = path.child(key).index(i);
    std::string_view name = json::get_string(m, {"name"});
    if (!valid_label_name(name)) out.push_back(validation::field_invalid(p.child("name"), jstr(name), "is not a valid label name"));
    std::string_view type = json::get_string(m, {"matchType"});
    if (type == "=~" || type == "!~")
      if (auto why = promql::regex_error(json::get_string(m, {"value"})))
        out.push_back(validation::field_invalid(p.child("value"), jstr(json::get_string(m, {"value"})), *why));
  }
}

using Names = std::set<std::string, std::less<>>;

// A route and its children, `depth` levels below the top; `receivers` and `intervals`: the names
// of this object's receivers and muteTimeIntervals.
void route(const json::Value& r, const FieldPath& path, int depth, const Names& receivers, const Names& intervals, std::vector<Cause>& out) {
  if (!r.is_object()) {
    out.push_back(validation::field_type_invalid(path, r, "must be an object"));
    return;
  }
  if (depth > kMaxRouteDepth) {
    out.push_back(validation::field_invalid(path, json::Value("..."), "routes nest more than " + std::to_string(kMaxRouteDepth) + " levels deep"));
    return;
  }
  if (depth > 0) {
    // A child route is kept as written: read it with the top route's fields, none other.
    static const Names kFields{"receiver", "groupBy", "groupWait",  "groupInterval",     "repeatInterval",
                               "matchers", "continue", "routes", "muteTimeIntervals", "activeTimeIntervals"};
    for (const auto& kv : r.get_object())
      if (!kFields.contains(kv.key())) out.push_back(validation::field_invalid(path.child(kv.key()), json::Value("..."), "unknown field of a route"));
    try {
      Route::from_json(r, path.str());
    } catch (const std::exception& e) {
      out.push_back(validation::field_invalid(path, json::Value("{...}"), e.what()));
      return;
    }
  }
  std::string_view receiver = json::get_string(r, {"receiver"});
  if (receiver.empty() && depth == 0) out.push_back(validation::field_required(path.child("receiver"), "the top route names a receiver"));
  if (!receiver.empty() && !receivers.contains(receiver))
    out.push_back(validation::field_invalid(path.child("receiver"), jstr(receiver), "is not one of this object's receivers"));
  matchers(r, "matchers", path, out);
  for (std::string_view key : {"muteTimeIntervals", "activeTimeIntervals"})
    if (const json::Array* list = json::get_array(r, {key}))
      for (std::size_t i = 0; i < list->size(); ++i)
        if (!(*list)[i].is_string() || !intervals.contains((*list)[i].get_string()))
          out.push_back(validation::field_invalid(path.child(key).index(i), (*list)[i], "is not one of this object's muteTimeIntervals"));
  if (const json::Array* labels = json::get_array(r, {"groupBy"}))
    for (std::size_t i = 0; i < labels->size(); ++i)
      if (std::string_view l = (*labels)[i].is_string() ? std::string_view((*labels)[i].get_string()) : ""; l != "..." && !valid_label_name(l))
        out.push_back(validation::field_invalid(path.child("groupBy").index(i), (*labels)[i], "is not a valid label name"));
  if (const json::Array* children = json::get_array(r, {"routes"}))
    for (std::size_t i = 0; i < children->size(); ++i) route((*children)[i], path.child("routes").index(i), depth + 1, receivers, intervals, out);
}

// `s` as a number within [min, max], or a name of `names` (lowercase; position + offset is its number).
std::optional<int> ordinal(std::string_view s, const std::vector<std::string_view>& names, int offset, int min, int max) {
  const std::string lower = meta::ascii_lower(s);
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == lower) return static_cast<int>(i) + offset;
  if (s.empty() || s.size() > 4 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
  int n = std::stoi(std::string(s));
  if (n < min || n > max) return std::nullopt;
  return n;
}

// Each element of holder[key]: "a" or "a:b" with a <= b, each an ordinal().
void ranges(const json::Value& holder, std::string_view key, const FieldPath& path, const std::vector<std::string_view>& names, int offset,
            int min, int max, std::string_view what, std::vector<Cause>& out) {
  const json::Array* list = json::get_array(holder, {key});
  if (!list) return;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string_view v = (*list)[i].is_string() ? std::string_view((*list)[i].get_string()) : std::string_view();
    const auto colon = v.find(':');
    auto a = ordinal(v.substr(0, colon), names, offset, min, max);
    auto b = colon == std::string_view::npos ? a : ordinal(v.substr(colon + 1), names, offset, min, max);
    if (!a || !b) out.push_back(validation::field_invalid(path.child(key).index(i), (*list)[i], "must be " + std::string(what) + " or a range of them (a:b)"));
    else if (*a > *b) out.push_back(validation::field_invalid(path.child(key).index(i), (*list)[i], "the range ends before it starts"));
  }
}

int minutes(std::string_view hhmm) { return std::stoi(std::string(hhmm.substr(0, 2))) * 60 + std::stoi(std::string(hhmm.substr(3, 2))); }

// The object's muteTimeIntervals (unique names, what Alertmanager's timeinterval parser takes);
// their names go to `names`.
void time_intervals(const json::Value& spec, const FieldPath& sp, Names& names, std::vector<Cause>& out) {
  static const std::vector<std::string_view> kWeekdays{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};
  static const std::vector<std::string_view> kMonths{"january", "february", "march",     "april",   "may",      "june",
                                                     "july",    "august",   "september", "october", "november", "december"};
  const json::Array* list = json::get_array(spec, {"muteTimeIntervals"});
  if (!list) return;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const FieldPath p = sp.child("muteTimeIntervals").index(i);
    std::string name(json::get_string((*list)[i], {"name"}));
    if (!names.insert(name).second) out.push_back(validation::field_duplicate(p.child("name"), jstr(name)));
    const json::Array* intervals = json::get_array((*list)[i], {"timeIntervals"});
    for (std::size_t j = 0; intervals && j < intervals->size(); ++j) {
      const json::Value& t = (*intervals)[j];
      const FieldPath tp = p.child("timeIntervals").index(j);
      ranges(t, "weekdays", tp, kWeekdays, 0, -1, -1, "a day of the week", out);
      ranges(t, "months", tp, kMonths, 1, 1, 12, "a month (a name or 1-12)", out);
      ranges(t, "years", tp, {}, 0, 1, 9999, "a year", out);
      if (const json::Array* days = json::get_array(t, {"daysOfMonth"}))
        for (std::size_t k = 0; k < days->size(); ++k) {
          const auto* start = json::find((*days)[k], {"start"});
          const auto* end = json::find((*days)[k], {"end"});
          const std::int64_t a = start && start->is_int64() ? start->as_int64() : 0, b = end && end->is_int64() ? end->as_int64() : a;
          if (a == 0 || b == 0) out.push_back(validation::field_invalid(tp.child("daysOfMonth").index(k), (*days)[k], "days are 1..31, or -31..-1 from the end"));
          else if ((a > 0) == (b > 0) && a > b) out.push_back(validation::field_invalid(tp.child("daysOfMonth").index(k), (*days)[k], "the range ends before it starts"));
        }
      if (const json::Array* times = json::get_array(t, {"times"}))
        for (std::size_t k = 0; k < times->size(); ++k) {
          const std::string_view a = json::get_string((*times)[k], {"startTime"}), b = json::get_string((*times)[k], {"endTime"});
          if (a.size() == 5 && b.size() == 5 && minutes(a) >= minutes(b))
            out.push_back(validation::field_invalid(tp.child("times").index(k).child("endTime"), jstr(b), "must be after startTime"));
        }
    }
  }
}

}  // namespace

std::vector<Cause> validate_alertmanager(const json::Value& obj) {
  std::vector<Cause> out;
  const json::Value* spec = json::find(obj, {"spec"});
  if (!spec || !spec->is_object()) return out;
  FieldPath sp("spec");
  if (const auto* retention = json::find(*spec, {"retention"}); retention && retention->is_string()) {
    std::string why;
    auto ms = promql::parse_duration(retention->get_string(), &why);
    if (!ms) out.push_back(validation::field_invalid(sp.child("retention"), *retention, why));
    else if (*ms == 0) out.push_back(validation::field_invalid(sp.child("retention"), *retention, "must be greater than 0"));
  }
  if (const auto* url = json::find(*spec, {"externalUrl"}); url && url->is_string() && !url->get_string().empty() && !http_url(url->get_string()))
    out.push_back(validation::field_invalid(sp.child("externalUrl"), *url, "must be an http:// or https:// URL with a host"));
  for (std::string_view key : {"alertmanagerConfigSelector", "alertmanagerConfigNamespaceSelector"}) validate_label_selector(*spec, key, sp, out);
  validate_storage(*spec, sp, out);
  return out;
}

std::vector<Cause> validate_alertmanager_config(const json::Value& obj) {
  std::vector<Cause> out;
  const json::Value* spec = json::find(obj, {"spec"});
  if (!spec || !spec->is_object()) return out;
  FieldPath sp("spec");
  Names names, intervals;
  time_intervals(*spec, sp, intervals, out);
  if (const json::Array* receivers = json::get_array(*spec, {"receivers"}))
    for (std::size_t i = 0; i < receivers->size(); ++i) {
      FieldPath p = sp.child("receivers").index(i);
      std::string name(json::get_string((*receivers)[i], {"name"}));
      if (!names.insert(name).second) out.push_back(validation::field_duplicate(p.child("name"), jstr(name)));
      if (const json::Array* hooks = json::get_array((*receivers)[i], {"webhookConfigs"}))
        for (std::size_t j = 0; j < hooks->size(); ++j) {
          FieldPath hp = p.child("webhookConfigs").index(j);
          std::string_view url = json::get_string((*hooks)[j], {"url"});
          const bool has_secret = json::find((*hooks)[j], {"urlSecret"}) != nullptr;
          if (url.empty() && !has_secret) out.push_back(validation::field_required(hp.child("url"), "one of url and urlSecret is required"));
          if (!url.empty() && has_secret) out.push_back(validation::field_forbidden(hp.child("urlSecret"), "may not be set with url"));
          if (!url.empty() && !http_url(url)) out.push_back(validation::field_invalid(hp.child("url"), jstr(url), "must be an http:// or https:// URL with a host"));
        }
      if (const json::Array* pd = json::get_array((*receivers)[i], {"pagerdutyConfigs"}))
        for (std::size_t j = 0; j < pd->size(); ++j)
          if (!json::find((*pd)[j], {"routingKey"}) && !json::find((*pd)[j], {"serviceKey"}))
            out.push_back(validation::field_required(p.child("pagerdutyConfigs").index(j).child("routingKey"), "one of routingKey and serviceKey is required"));
      if (const json::Array* og = json::get_array((*receivers)[i], {"opsgenieConfigs"}))
        for (std::size_t j = 0; j < og->size(); ++j)
          if (const json::Array* who = json::get_array((*og)[j], {"responders"}))
            for (std::size_t k = 0; k < who->size(); ++k)
              if (json::get_string((*who)[k], {"id"}).empty() && json::get_string((*who)[k], {"name"}).empty() &&
                  json::get_string((*who)[k], {"username"}).empty())
                out.push_back(validation::field_required(p.child("opsgenieConfigs").index(j).child("responders").index(k),
                                                         "one of id, name and username is required"));
    }
  if (const json::Value* r = json::find(*spec, {"route"})) route(*r, sp.child("route"), 0, names, intervals, out);
  if (const json::Array* rules = json::get_array(*spec, {"inhibitRules"}))
    for (std::size_t i = 0; i < rules->size(); ++i) {
      FieldPath p = sp.child("inhibitRules").index(i);
      matchers((*rules)[i], "sourceMatch", p, out);
      matchers((*rules)[i], "targetMatch", p, out);
      if (const json::Array* equal = json::get_array((*rules)[i], {"equal"}))
        for (std::size_t j = 0; j < equal->size(); ++j)
          if (!(*equal)[j].is_string() || !valid_label_name((*equal)[j].get_string()))
            out.push_back(validation::field_invalid(p.child("equal").index(j), (*equal)[j], "is not a valid label name"));
    }
  return out;
}

}  // namespace capstan::apis::monitoring::v1
