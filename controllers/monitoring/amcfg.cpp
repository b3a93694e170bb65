#include "controllers/monitoring/amcfg.h"

#include "runtime/json/yaml.h"

#include <stdexcept>

namespace capstan::monitoring {
namespace {

namespace v1 = apis::monitoring::v1;

// Alertmanager's matcher syntax: name, operator, the value double-quoted with \ and " escaped.
std::string matcher_string(const std::string& name, std::string op, const std::string& value) {
  if (op.empty()) op = "=";
  std::string out = name + op + "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

json::Array matcher_list(const std::vector<v1::Matcher>& matchers, const std::string* ns) {
  json::Array out;
  if (ns) out.emplace_back(matcher_string("namespace", "=", *ns));
  for (const auto& m : matchers) out.emplace_back(matcher_string(m.name, m.match_type, m.value));
  return out;
}

std::string receiver_name(const AlertmanagerConfigInput& c, const std::string& receiver) { return c.ns + "/" + c.name + "/" + receiver; }

json::Value convert_route(const v1::Route& r, const AlertmanagerConfigInput& c, const std::string* ns_matcher, bool top) {
  json::Object out;
  if (!r.receiver.empty()) out["receiver"] = receiver_name(c, r.receiver);
  if (!r.group_by.empty()) out["group_by"] = json::Array(r.group_by.begin(), r.group_by.end());
  if (!r.group_wait.empty()) out["group_wait"] = r.group_wait;
  if (!r.group_interval.empty()) out["group_interval"] = r.group_interval;
  if (!r.repeat_interval.empty()) out["repeat_interval"] = r.repeat_interval;
  json::Array matchers = matcher_list(r.matchers, ns_matcher);
  if (!matchers.empty()) out["matchers"] = std::move(matchers);
  // At the top: the routes after it (other namespaces', the base's) still see the alert.
  if (top || r.continue_) out["continue"] = true;
  if (!r.routes.empty()) {
    json::Array children;
    for (std::size_t i = 0; i < r.routes.size(); ++i)
      children.push_back(convert_route(v1::Route::from_json(r.routes[i], "routes[" + std::to_string(i) + "]"), c, nullptr, false));
    out["routes"] = std::move(children);
  }
  return out;
}

// A receiver with its Secrets read (throws naming the object, receiver and field).
json::Value convert_receiver(const v1::Receiver& r, const AlertmanagerConfigInput& c, const SecretValueReader& secrets) {
  json::Object out{{"name", receiver_name(c, r.name)}};
  json::Array hooks;
  for (std::size_t i = 0; i < r.webhook_configs.size(); ++i) {
    const auto& w = r.webhook_configs[i];
    std::string url = w.url;
    if (w.url_secret) {
      try {
        url = secrets(c.ns, *w.url_secret);
      } catch (const std::exception& e) {
        throw std::runtime_error("AlertmanagerConfig " + c.ns + "/" + c.name + ": receiver " + r.name + " webhookConfigs[" + std::to_string(i) +
                                 "].urlSecret: " + e.what());
      }
      while (!url.empty() && (url.back() == '\n' || url.back() == '\r' || url.back() == ' ')) url.pop_back();
    }
    json::Object hook{{"url", url}};
    if (w.send_resolved) hook["send_resolved"] = *w.send_resolved;
    if (w.max_alerts > 0) hook["max_alerts"] = w.max_alerts;
    hooks.push_back(std::move(hook));
  }
  if (!hooks.empty()) out["webhook_configs"] = std::move(hooks);
  return out;
}

json::Array& member_array(json::Object& o, std::string_view key) {
  json::Value& v = o[key];
  if (!v.is_array()) v = json::Array();
  return v.as_array();
}

}  // namespace

json::Value default_alertmanager_config() {
  return json::Object{{"route", json::Object{{"receiver", "null"}}}, {"receivers", json::Array{json::Object{{"name", "null"}}}}};
}

json::Value parse_base_config(const std::string& yaml) {
  json::Value v;
  try {
    v = json::from_yaml(yaml, "alertmanager.yaml");
  } catch (const std::exception& e) {
    throw std::invalid_argument(e.what());
  }
  if (!v.is_object()) throw std::invalid_argument("alertmanager.yaml is not a mapping");
  if (json::get_string(v, {"route", "receiver"}).empty()) throw std::invalid_argument("alertmanager.yaml: the top route names no receiver");
  return v;
}

AssembledConfig assemble_alertmanager_config(json::Value base, const std::vector<AlertmanagerConfigInput>& configs, bool on_namespace,
                                             const SecretValueReader& secrets) {
  AssembledConfig out;
  json::Array routes, receivers, inhibit_rules;
  for (std::size_t index = 0; index < configs.size(); ++index) {
    const auto& c = configs[index];
    const std::string* ns = on_namespace ? &c.ns : nullptr;
    json::Array own_receivers;
    try {
      for (const auto& r : c.spec.receivers) own_receivers.push_back(convert_receiver(r, c, secrets));
    } catch (const std::exception& e) {
      out.rejected.emplace_back(index, e.what());
      continue;
    }
    for (auto& r : own_receivers) receivers.push_back(std::move(r));
    if (c.spec.route) routes.push_back(convert_route(*c.spec.route, c, ns, true));
    for (const auto& rule : c.spec.inhibit_rules) {
      json::Object converted;
      json::Array source = matcher_list(rule.source_match, ns), target = matcher_list(rule.target_match, ns);
      if (!source.empty()) converted["source_matchers"] = std::move(source);
      if (!target.empty()) converted["target_matchers"] = std::move(target);
      if (!rule.equal.empty()) converted["equal"] = json::Array(rule.equal.begin(), rule.equal.end());
      inhibit_rules.push_back(std::move(converted));
    }
  }
  json::Object& cfg = base.as_object();
  for (auto& r : receivers) member_array(cfg, "receivers").push_back(std::move(r));
  for (auto& r : inhibit_rules) member_array(cfg, "inhibit_rules").push_back(std::move(r));
  if (!routes.empty()) {
    // The configs' routes come first among the top route's children, the base's after them.
    json::Value& top = cfg["route"];
    if (!top.is_object()) top = json::Object();
    for (auto& r : member_array(top.as_object(), "routes")) routes.push_back(std::move(r));
    top.as_object()["routes"] = std::move(routes);
  }
  out.config = std::move(base);
  return out;
}

}  // namespace capstan::monitoring
