// Prometheus and the monitors' endpoint settings: what Prometheus refuses in the configuration
// the operator generates (one bad object would stop every reload), checked at admission.
#include "apis/monitoring/promql/number.h"
#include "apis/monitoring/v1/types.h"
#include "apis/monitoring/v1/validation.h"
#include "runtime/meta/ascii.h"

#include <re2/re2.h>
#include <set>

namespace capstan::apis::monitoring::v1 {
namespace {

using validation::Cause;
using validation::FieldPath;

json::Value jstr(std::string_view s) { return json::Value(std::string(s)); }

// A model.Duration member: nullopt when absent; an error (and nullopt) when it does not parse.
std::optional<std::int64_t> duration_ms(const json::Value& o, std::string_view key, const FieldPath& path, std::vector<Cause>& out) {
  const json::Value* v = json::find(o, {key});
  if (!v || !v->is_string()) return std::nullopt;
  std::string why;
  auto ms = promql::parse_duration(v->get_string(), &why);
  if (!ms) out.push_back(validation::field_invalid(path.child(key), *v, why));
  return ms;
}

void positive(const json::Value& o, std::string_view key, std::optional<std::int64_t> ms, const FieldPath& path, std::vector<Cause>& out) {
  if (ms && *ms == 0) out.push_back(validation::field_invalid(path.child(key), *json::find(o, {key}), "must be greater than 0"));
}

// The scrape timeout may not exceed the interval (Prometheus refuses the configuration).
void timeout_within_interval(const json::Value& o, std::string_view timeout_key, std::optional<std::int64_t> timeout,
                             std::optional<std::int64_t> interval, std::string_view interval_text, const FieldPath& path,
                             std::vector<Cause>& out) {
  if (timeout && interval && *timeout > *interval)
    out.push_back(validation::field_invalid(path.child(timeout_key), *json::find(o, {timeout_key}),
                                            "must not be greater than the scrape interval (" + std::string(interval_text) + ")"));
}


}  // namespace

// metav1validation.ValidateLabelSelector's operator rules.
void validate_label_selector(const json::Value& spec, std::string_view key, const FieldPath& spec_path, std::vector<Cause>& out) {
  const json::Array* exprs = json::get_array(spec, {key, "matchExpressions"});
  if (!exprs) return;
  FieldPath p = spec_path.child(key).child("matchExpressions");
  for (std::size_t i = 0; i < exprs->size(); ++i) {
    std::string_view op = json::get_string((*exprs)[i], {"operator"});
    const json::Array* values = json::get_array((*exprs)[i], {"values"});
    std::size_t n = values ? values->size() : 0;
    if ((op == "In" || op == "NotIn") && n == 0)
      out.push_back(validation::field_required(p.index(i).child("values"), "must be specified when `operator` is 'In' or 'NotIn'"));
    if ((op == "Exists" || op == "DoesNotExist") && n > 0)
      out.push_back(validation::field_forbidden(p.index(i).child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  }
}

bool valid_label_name(std::string_view s) {
  if (s.empty()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9'))) return false;
  }
  return true;
}

bool http_url(std::string_view url) {
  static const re2::RE2 re(R"((?i)https?://[^/?#\s]+([/?#]\S*)?)");
  return url.size() <= 2048 && re2::RE2::FullMatch(url, re);
}

std::vector<Cause> validate_prometheus(const json::Value& obj) {
  std::vector<Cause> out;
  const json::Value* spec = json::find(obj, {"spec"});
  if (!spec || !spec->is_object()) return out;
  FieldPath sp("spec");
  auto scrape_interval = duration_ms(*spec, "scrapeInterval", sp, out);
  auto scrape_timeout = duration_ms(*spec, "scrapeTimeout", sp, out);
  auto eval_interval = duration_ms(*spec, "evaluationInterval", sp, out);
  auto retention = duration_ms(*spec, "retention", sp, out);
  (void)retention;
  positive(*spec, "scrapeInterval", scrape_interval, sp, out);
  positive(*spec, "scrapeTimeout", scrape_timeout, sp, out);
  positive(*spec, "evaluationInterval", eval_interval, sp, out);
  std::string interval_text(json::get_string(*spec, {"scrapeInterval"}, kDefaultScrapeInterval));
  std::string ignored;
  timeout_within_interval(*spec, "scrapeTimeout", scrape_timeout,
                          scrape_interval ? scrape_interval : promql::parse_duration(kDefaultScrapeInterval, &ignored), interval_text, sp, out);

  // prometheus-operator's CRD pattern for retentionSize (Prometheus's units.Base2Bytes).
  if (const auto* size = json::find(*spec, {"retentionSize"}); size && size->is_string()) {
    static const re2::RE2 re(R"(0|([0-9]*[.])?[0-9]+((K|M|G|T|E|P)i?)?B)");
    if (!re2::RE2::FullMatch(std::string_view(size->get_string()), re)) out.push_back(validation::field_invalid(sp.child("retentionSize"), *size, "must be a size such as 512MB or 10GiB"));
  }
  if (const auto* labels = json::get_object(*spec, {"externalLabels"}))
    for (const auto& kv : *labels)
      if (!valid_label_name(kv.key()))
        out.push_back(validation::field_invalid(sp.child("externalLabels").key(kv.key()), jstr(kv.key()), "is not a valid label name"));
  for (std::string_view key : {"replicaExternalLabelName", "prometheusExternalLabelName"}) {
    const json::Value* v = json::find(*spec, {key});
    if (v && v->is_string() && !v->get_string().empty() && !valid_label_name(v->get_string()))
      out.push_back(validation::field_invalid(sp.child(key), *v, "is not a valid label name (empty leaves the label out)"));
  }
  for (std::string_view key : {"serviceMonitorSelector", "serviceMonitorNamespaceSelector", "podMonitorSelector", "podMonitorNamespaceSelector",
                               "probeSelector", "probeNamespaceSelector", "scrapeConfigSelector", "scrapeConfigNamespaceSelector",
                               "ruleSelector", "ruleNamespaceSelector"})
    validate_label_selector(*spec, key, sp, out);
  if (const auto* rw = json::get_array(*spec, {"remoteWrite"})) {
    std::set<std::string> names;
    for (std::size_t i = 0; i < rw->size(); ++i) {
      FieldPath p = sp.child("remoteWrite").index(i);
      std::string_view url = json::get_string((*rw)[i], {"url"});
      if (!http_url(url)) out.push_back(validation::field_invalid(p.child("url"), jstr(url), "must be an http:// or https:// URL with a host"));
      std::string_view name = json::get_string((*rw)[i], {"name"});
      if (!name.empty() && !names.insert(std::string(name)).second) out.push_back(validation::field_duplicate(p.child("name"), jstr(name)));
      auto t = duration_ms((*rw)[i], "remoteTimeout", p, out);
      positive((*rw)[i], "remoteTimeout", t, p, out);
    }
  }
  // Scrape classes: named once each, at most one the default, relabelings Prometheus takes.
  if (const auto* classes = json::get_array(*spec, {"scrapeClasses"})) {
    std::set<std::string> names;
    bool has_default = false;
    for (std::size_t i = 0; i < classes->size(); ++i) {
      const json::Value& c = (*classes)[i];
      FieldPath p = sp.child("scrapeClasses").index(i);
      std::string_view name = json::get_string(c, {"name"});
      if (!names.insert(std::string(name)).second) out.push_back(validation::field_duplicate(p.child("name"), jstr(name)));
      if (json::get_bool(c, {"default"})) {
        if (has_default) out.push_back(validation::field_invalid(p.child("default"), json::Value(true), "only one scrape class can be the default"));
        has_default = true;
      }
      validate_relabelings(c, "relabelings", p, out);
      validate_relabelings(c, "metricRelabelings", p, out);
    }
  }
  validate_storage(*spec, sp, out);
  // What is merged by name needs one.
  for (std::string_view key : {"containers", "initContainers", "volumes"})
    if (const auto* items = json::get_array(*spec, {key}))
      for (std::size_t i = 0; i < items->size(); ++i)
        if (json::get_string((*items)[i], {"name"}).empty())
          out.push_back(validation::field_required(sp.child(key).index(i).child("name"), "merged into the pod by name"));
  if (const auto* mounts = json::get_array(*spec, {"volumeMounts"}))
    for (std::size_t i = 0; i < mounts->size(); ++i)
      for (std::string_view key : {"name", "mountPath"})
        if (json::get_string((*mounts)[i], {key}).empty()) out.push_back(validation::field_required(sp.child("volumeMounts").index(i).child(key), ""));
  if (const auto* url = json::find(*spec, {"externalUrl"}); url && url->is_string() && !url->get_string().empty() && !http_url(url->get_string()))
    out.push_back(validation::field_invalid(sp.child("externalUrl"), *url, "must be an http:// or https:// URL with a host"));
  if (const auto* prefix = json::find(*spec, {"routePrefix"});
      prefix && prefix->is_string() && !prefix->get_string().empty() && prefix->get_string().front() != '/')
    out.push_back(validation::field_invalid(sp.child("routePrefix"), *prefix, "must begin with /"));
  return out;
}

void validate_storage(const json::Value& spec, const FieldPath& sp, std::vector<Cause>& out) {
  if (const auto* storage = json::get_object(spec, {"storage"})) {
    std::vector<std::string> set;
    for (std::string_view key : {"emptyDir", "ephemeral", "volumeClaimTemplate"})
      if (storage->contains(key)) set.emplace_back(key);
    if (set.size() > 1)
      out.push_back(validation::field_forbidden(sp.child("storage").child(set[1]), "may not be set together with " + set[0] + ": the data lives in one volume"));
  }
}

void validate_endpoint_timing(const json::Value& endpoint, const FieldPath& path, std::vector<Cause>& out, std::string_view interval_key) {
  auto interval = duration_ms(endpoint, interval_key, path, out);
  auto timeout = duration_ms(endpoint, "scrapeTimeout", path, out);
  positive(endpoint, interval_key, interval, path, out);
  positive(endpoint, "scrapeTimeout", timeout, path, out);
  timeout_within_interval(endpoint, "scrapeTimeout", timeout, interval, json::get_string(endpoint, {interval_key}), path, out);
}

void validate_relabel_config(const json::Value& config, const FieldPath& path, std::vector<Cause>& out) {
  const std::string action = meta::ascii_lower(json::get_string(config, {"action"}, "replace"));
  bool has_target = !json::get_string(config, {"targetLabel"}).empty();
  if ((action == "replace" || action == "hashmod" || action == "lowercase" || action == "uppercase" || action == "keepequal" ||
       action == "dropequal") &&
      !has_target)
    out.push_back(validation::field_required(path.child("targetLabel"), "relabel configuration for " + action + " action requires 'targetLabel' value"));
  if (action == "hashmod") {
    const json::Value* m = json::find(config, {"modulus"});
    if (!m || !m->is_int64() || m->as_int64() <= 0)
      out.push_back(validation::field_required(path.child("modulus"), "relabel configuration for hashmod requires non-zero modulus"));
  }
  if (action == "labeldrop" || action == "labelkeep") {
    if (json::get_array(config, {"sourceLabels"}) && !json::get_array(config, {"sourceLabels"})->empty())
      out.push_back(validation::field_forbidden(path.child("sourceLabels"), action + " action requires only 'regex', and no other fields"));
    if (has_target) out.push_back(validation::field_forbidden(path.child("targetLabel"), action + " action requires only 'regex', and no other fields"));
  }
  if (const auto* src = json::get_array(config, {"sourceLabels"}))
    for (std::size_t i = 0; i < src->size(); ++i)
      if ((*src)[i].is_string() && !valid_label_name((*src)[i].get_string()))
        out.push_back(validation::field_invalid(path.child("sourceLabels").index(i), (*src)[i], "is not a valid label name"));
  if (has_target && action != "replace" && !valid_label_name(json::get_string(config, {"targetLabel"})))
    out.push_back(validation::field_invalid(path.child("targetLabel"), *json::find(config, {"targetLabel"}), "is not a valid label name"));
}

}  // namespace capstan::apis::monitoring::v1
