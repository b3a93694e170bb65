// AlertmanagerConfig: what would make Alertmanager refuse the configuration an Alertmanager
// merges it into (one bad object would stop every reload), checked at admission and again by the
// controller, which leaves such an object out alone.
#include "apis/monitoring/promql/number.h"
#include "apis/monitoring/promql/regex.h"
#include "apis/monitoring/v1/types.h"
#include "apis/monitoring/v1/validation.h"

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

// A route and its children, `depth` levels below the top.
void route(const json::Value& r, const FieldPath& path, int depth, const std::set<std::string, std::less<>>& receivers, std::vector<Cause>& out) {
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
    static const std::set<std::string, std::less<>> kFields{"receiver", "groupBy", "groupWait", "groupInterval", "repeatInterval",
                                                            "matchers", "continue", "routes"};
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
  if (const json::Array* labels = json::get_array(r, {"groupBy"}))
    for (std::size_t i = 0; i < labels->size(); ++i)
      if (std::string_view l = (*labels)[i].is_string() ? std::string_view((*labels)[i].get_string()) : ""; l != "..." && !valid_label_name(l))
        out.push_back(validation::field_invalid(path.child("groupBy").index(i), (*labels)[i], "is not a valid label name"));
  if (const json::Array* children = json::get_array(r, {"routes"}))
    for (std::size_t i = 0; i < children->size(); ++i) route((*children)[i], path.child("routes").index(i), depth + 1, receivers, out);
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
  return out;
}

std::vector<Cause> validate_alertmanager_config(const json::Value& obj) {
  std::vector<Cause> out;
  const json::Value* spec = json::find(obj, {"spec"});
  if (!spec || !spec->is_object()) return out;
  FieldPath sp("spec");
  std::set<std::string, std::less<>> names;
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
    }
  if (const json::Value* r = json::find(*spec, {"route"})) route(*r, sp.child("route"), 0, names, out);
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
