#include "apis/kafka/v1/validation.h"

#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1/metadata_versions.h"
#include "apis/kafka/v1/types.h"
#include "runtime/meta/names.h"

#include <arpa/inet.h>

#include <cctype>
#include <regex>
#include <set>

namespace capstan::apis::kafka::v1 {
namespace {

using validation::Cause;
using validation::FieldPath;
using Causes = std::vector<Cause>;

// Broker settings Strimzi owns (KafkaClusterSpec.FORBIDDEN_PREFIXES), and the exceptions.
constexpr std::string_view kForbiddenPrefixes[] = {
    "listeners",       "advertised.",     "broker.",        "listener.",       "host.name",     "port",
    "inter.broker.listener.name",         "sasl.",          "ssl.",            "security.",     "password.",
    "log.dir",         "authorizer.",     "super.user",     "node.id",         "process.roles", "controller.",
    "metadata.log.dir", "cruise.control.metrics.", "prometheus.metrics.reporter.", "cordoned.log.dirs"};
constexpr std::string_view kForbiddenExceptions[] = {"ssl.cipher.suites", "ssl.protocol", "ssl.enabled.protocols",
                                                     "ssl.secure.random.implementation", "ssl.endpoint.identification.algorithm",
                                                     "controller.quorum.election.backoff.max.ms",
                                                     "controller.quorum.election.timeout.ms",
                                                     "controller.quorum.fetch.timeout.ms"};

static_assert(metadata_version_level(kDefaultMetadataVersion), "the default metadata version is in the pinned release's table");
static_assert(kafka_release(kDefaultKafkaVersion) && kafka_release(kDefaultKafkaVersion)->metadata_version == kDefaultMetadataVersion,
              "the default Kafka release is supported and formats clusters with the default metadata version");

constexpr std::int64_t kMinListenerPort = 9092;
constexpr std::int64_t kMaxListenerPort = 65535;

json::Value jstr(std::string_view s) { return json::Value(std::string(s)); }

const json::Value* member(const json::Value* v, std::initializer_list<std::string_view> path) {
  if (!v) return nullptr;
  const json::Value* m = json::find(*v, path);
  return m && !m->is_null() ? m : nullptr;
}
std::string_view member_string(const json::Value* v, std::initializer_list<std::string_view> path) {
  const auto* m = member(v, path);
  return m && m->is_string() ? std::string_view(m->get_string()) : std::string_view();
}

bool valid_listener_name(std::string_view n) {
  if (n.empty() || n.size() > 11) return false;
  for (char c : n)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

// "4.1.0" -> {4,1,0}; "4.1-IV1" -> {4,1,iv 1}. nullopt on another shape.
struct Version {
  int major = 0, minor = 0, patch = 0, iv = -1;
};
std::optional<Version> parse_kafka_version(std::string_view s) {
  static const std::regex re(R"(^(\d{1,4})\.(\d{1,4})\.(\d{1,4})$)");
  std::cmatch m;
  if (!std::regex_match(s.begin(), s.end(), m, re)) return std::nullopt;
  return Version{std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3]), -1};
}
std::optional<Version> parse_metadata_version(std::string_view s) {
  static const std::regex re(R"(^(\d{1,4})\.(\d{1,4})(-IV(\d{1,4}))?$)");
  std::cmatch m;
  if (!std::regex_match(s.begin(), s.end(), m, re)) return std::nullopt;
  return Version{std::stoi(m[1]), std::stoi(m[2]), 0, m[4].matched ? std::stoi(m[4]) : -1};
}

bool ip_address(std::string_view s) {
  std::string text(s);
  unsigned char buf[16];
  return inet_pton(AF_INET, text.c_str(), buf) == 1 || inet_pton(AF_INET6, text.c_str(), buf) == 1;
}

// "10.0.0.0/8", "2001:db8::/32".
bool cidr(std::string_view s) {
  auto slash = s.find('/');
  if (slash == std::string_view::npos || slash + 1 == s.size() || s.size() - slash > 4) return false;
  std::string_view addr = s.substr(0, slash), bits = s.substr(slash + 1);
  for (char c : bits)
    if (c < '0' || c > '9') return false;
  int n = std::stoi(std::string(bits));
  std::string text(addr);
  unsigned char buf[16];
  if (inet_pton(AF_INET, text.c_str(), buf) == 1) return n <= 32;
  return inet_pton(AF_INET6, text.c_str(), buf) == 1 && n <= 128;
}

void check_port(const json::Value* v, const FieldPath& p, Causes& out) {
  if (!v) return;
  if (!v->is_int64() || v->as_int64() < 1 || v->as_int64() > 65535)
    out.push_back(validation::field_invalid(p, *v, "must be between 1 and 65535, inclusive"));
}

void check_host(const json::Value* v, const FieldPath& p, bool ip_allowed, Causes& out) {
  if (!v) return;
  std::string_view h = v->is_string() ? std::string_view(v->get_string()) : std::string_view();
  if (ip_allowed && ip_address(h)) return;
  for (const auto& m : meta::names::dns1123_subdomain(h))
    out.push_back(validation::field_invalid(p, *v, ip_allowed ? "must be an IP address or a DNS name: " + m : "must be a DNS name: " + m));
}

// configuration{} of a listener of `type`: bounds, hosts, ports; an ingress listener's TLS and
// hosts (Strimzi's rules); settings that do not apply to the type are refused, naming the field.
void validate_listener_configuration(const json::Value& l, std::string_view type, const FieldPath& p, Causes& out) {
  const bool ingress = type == "ingress", nodeport = type == "nodeport", loadbalancer = type == "loadbalancer";
  if (ingress && !json::get_bool(l, {"tls"}))
    out.push_back(validation::field_forbidden(p.child("tls"), "an ingress listener needs tls: true (the Ingress controller passes TLS through)"));
  const json::Value* conf = member(&l, {"configuration"});
  FieldPath c = p.child("configuration");
  if (conf && !conf->is_object()) {
    out.push_back(validation::field_invalid(c, *conf, "must be an object"));
    return;
  }
  auto only_for = [&](std::string_view key, bool allowed, std::string_view types) {
    if (member(conf, {key}) && !allowed)
      out.push_back(validation::field_forbidden(c.child(key), "only for " + std::string(types) + " listeners"));
  };
  only_for("class", ingress || loadbalancer, "ingress and loadbalancer");
  only_for("externalTrafficPolicy", nodeport || loadbalancer, "loadbalancer and nodeport");
  only_for("loadBalancerSourceRanges", loadbalancer, "loadbalancer");
  only_for("preferredNodePortAddressType", nodeport, "nodeport");
  if (const auto* ranges = member(conf, {"loadBalancerSourceRanges"}); ranges && ranges->is_array()) {
    const auto& arr = ranges->get_array();
    if (static_cast<std::int64_t>(arr.size()) > kMaxLoadBalancerSourceRanges)
      out.push_back(validation::field_too_many(c.child("loadBalancerSourceRanges"), static_cast<std::int64_t>(arr.size()), kMaxLoadBalancerSourceRanges));
    else
      for (std::size_t i = 0; i < arr.size(); ++i)
        if (!arr[i].is_string() || !cidr(arr[i].get_string()))
          out.push_back(validation::field_invalid(c.child("loadBalancerSourceRanges").index(i), arr[i], "must be a CIDR such as 10.0.0.0/8"));
  }
  const json::Value* bootstrap = member(conf, {"bootstrap"});
  FieldPath bp = c.child("bootstrap");
  if (member(bootstrap, {"host"}) && !ingress) out.push_back(validation::field_forbidden(bp.child("host"), "only for ingress listeners"));
  else check_host(member(bootstrap, {"host"}), bp.child("host"), false, out);
  if (member(bootstrap, {"nodePort"}) && !nodeport) out.push_back(validation::field_forbidden(bp.child("nodePort"), "only for nodeport listeners"));
  else check_port(member(bootstrap, {"nodePort"}), bp.child("nodePort"), out);
  if (ingress && member_string(bootstrap, {"host"}).empty())
    out.push_back(validation::field_required(bp.child("host"), "an ingress listener needs the host of its bootstrap Ingress"));

  const json::Value* brokers = member(conf, {"brokers"});
  FieldPath brp = c.child("brokers");
  if (brokers && brokers->is_array()) {
    const auto& arr = brokers->get_array();
    if (static_cast<std::int64_t>(arr.size()) > kMaxListenerBrokers) {
      out.push_back(validation::field_too_many(brp, static_cast<std::int64_t>(arr.size()), kMaxListenerBrokers));
      return;
    }
    std::set<std::int64_t> ids;
    for (std::size_t i = 0; i < arr.size(); ++i) {
      const json::Value& b = arr[i];
      FieldPath ep = brp.index(i);
      const json::Value* id = member(&b, {"broker"});
      if (!id) out.push_back(validation::field_required(ep.child("broker"), "the broker's node ID"));
      else if (!id->is_int64() || id->as_int64() < 0 || id->as_int64() > 2147483647)
        out.push_back(validation::field_invalid(ep.child("broker"), *id, "must be a node ID (0 or more)"));
      else if (!ids.insert(id->as_int64()).second)
        out.push_back(validation::field_duplicate(ep.child("broker"), *id));
      if (member(&b, {"host"}) && !ingress) out.push_back(validation::field_forbidden(ep.child("host"), "only for ingress listeners"));
      else check_host(member(&b, {"host"}), ep.child("host"), false, out);
      if (ingress && member_string(&b, {"host"}).empty())
        out.push_back(validation::field_required(ep.child("host"), "an ingress listener needs the host of each broker's Ingress"));
      check_host(member(&b, {"advertisedHost"}), ep.child("advertisedHost"), true, out);
      check_port(member(&b, {"advertisedPort"}), ep.child("advertisedPort"), out);
      if (member(&b, {"nodePort"}) && !nodeport) out.push_back(validation::field_forbidden(ep.child("nodePort"), "only for nodeport listeners"));
      else check_port(member(&b, {"nodePort"}), ep.child("nodePort"), out);
    }
  } else if (ingress) {
    out.push_back(validation::field_required(brp, "an ingress listener needs the host of each broker's Ingress (brokers[].host)"));
  }
}

void validate_listeners(const json::Value* listeners, const FieldPath& path, Causes& out) {
  if (!listeners || !listeners->is_array() || listeners->get_array().empty()) {
    out.push_back(validation::field_required(path, "at least one listener is required"));
    return;
  }
  std::set<std::string> names;
  std::set<std::int64_t> ports;
  const auto& arr = listeners->get_array();
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const json::Value& l = arr[i];
    FieldPath p = path.index(i);
    std::string name(json::get_string(l, {"name"}));
    if (name.empty()) out.push_back(validation::field_required(p.child("name"), ""));
    else if (!valid_listener_name(name))
      out.push_back(validation::field_invalid(p.child("name"), jstr(name), "must be 1-11 lower-case letters and digits ([a-z0-9]{1,11})"));
    else if (!names.insert(name).second) out.push_back(validation::field_duplicate(p.child("name"), jstr(name)));
    const json::Value* port = json::find(l, {"port"});
    if (!port || !port->is_int64()) {
      out.push_back(validation::field_required(p.child("port"), ""));
    } else {
      std::int64_t v = port->as_int64();
      if (v == 9090 || v == 9091)
        out.push_back(validation::field_invalid(p.child("port"), *port, "ports 9090 and 9091 are reserved for the control plane and replication"));
      else if (v < kMinListenerPort || v > kMaxListenerPort)
        out.push_back(validation::field_invalid(p.child("port"), *port, "must be between 9092 and 65535, inclusive"));
      else if (!ports.insert(v).second)
        out.push_back(validation::field_duplicate(p.child("port"), *port));
    }
    if (json::get_string(l, {"authentication", "type"}) == "tls" && !json::get_bool(l, {"tls"}))
      out.push_back(validation::field_forbidden(p.child("authentication"), "TLS client authentication needs a TLS listener (tls: true)"));
    std::string_view type = json::get_string(l, {"type"});
    if (type == "route" || type == "tlsroute")
      out.push_back(validation::field_forbidden(
          p.child("type"), std::string("listener type ") + std::string(type) + " is not served: " +
                               (type == "route" ? "OpenShift Routes" : "Gateway API TLSRoutes") +
                               " are not supported; use loadbalancer, nodeport, ingress or cluster-ip"));
    else if (type != "internal" && type != "cluster-ip" && type != "loadbalancer" && type != "nodeport" && type != "ingress")
      out.push_back(validation::field_not_supported(p.child("type"), jstr(type), {"internal", "cluster-ip", "loadbalancer", "nodeport", "ingress"}));
    else
      validate_listener_configuration(l, type, p, out);
  }
}

// The ConfigMap reference, and the PodMonitor's labels (as the API server would judge them on
// the PodMonitor, said here on the Kafka).
void validate_metrics(const json::Value* metrics, const FieldPath& path, Causes& out) {
  if (!metrics || !metrics->is_object()) return;
  FieldPath ref = path.child("valueFrom").child("configMapKeyRef");
  std::string_view name = member_string(metrics, {"valueFrom", "configMapKeyRef", "name"});
  for (const auto& m : meta::names::dns1123_subdomain(name)) out.push_back(validation::field_invalid(ref.child("name"), jstr(name), m));
  std::string_view key = member_string(metrics, {"valueFrom", "configMapKeyRef", "key"});
  for (const auto& m : meta::names::config_map_key(key)) out.push_back(validation::field_invalid(ref.child("key"), jstr(key), m));
  const json::Value* labels = member(metrics, {"podMonitor", "labels"});
  if (!labels || !labels->is_object()) return;
  FieldPath lp = path.child("podMonitor").child("labels");
  for (const auto& kv : labels->get_object()) {
    for (const auto& m : meta::names::qualified_name(kv.key())) out.push_back(validation::field_invalid(lp.key(kv.key()), jstr(kv.key()), m));
    std::string_view v = kv.value().is_string() ? std::string_view(kv.value().get_string()) : std::string_view();
    for (const auto& m : meta::names::label_value(v)) out.push_back(validation::field_invalid(lp.key(kv.key()), kv.value(), m));
  }
}

// rack.topologyKey names a Node label: a label key, as the API server judges one.
void validate_rack(const json::Value* rack, const FieldPath& path, Causes& out) {
  if (!rack || !rack->is_object()) return;
  std::string_view key = member_string(rack, {"topologyKey"});
  for (const auto& m : meta::names::qualified_name(key)) out.push_back(validation::field_invalid(path.child("topologyKey"), jstr(key), m));
}

// spec.clusterCa / spec.clientsCa: a CA Capstan generates, renewed before it expires.
void validate_certificate_authority(const json::Value* ca, const FieldPath& path, Causes& out) {
  if (!ca || !ca->is_object()) return;
  if (const json::Value* generate = member(ca, {"generateCertificateAuthority"}); generate && generate->is_bool() && !generate->as_bool())
    out.push_back(validation::field_forbidden(path.child("generateCertificateAuthority"),
                                              "a CA of your own is not supported: the certificates controller issues the cluster's CAs"));
  const json::Value* validity = member(ca, {"validityDays"});
  const json::Value* renewal = member(ca, {"renewalDays"});
  const std::int64_t validity_days = validity && validity->is_int64() ? validity->as_int64() : kDefaultCaValidityDays;
  const std::int64_t renewal_days = renewal && renewal->is_int64() ? renewal->as_int64() : kDefaultCaRenewalDays;
  if (renewal_days >= validity_days)
    out.push_back(validation::field_invalid(path.child("renewalDays"), json::Value(renewal_days),
                                            "must be fewer than validityDays (" + std::to_string(validity_days) + ")" +
                                                (renewal ? "" : ": the default renewalDays is " + std::to_string(kDefaultCaRenewalDays))));
}

void validate_config(const json::Value* config, const FieldPath& path, Causes& out) {
  if (!config || !config->is_object()) return;
  for (const auto& kv : config->get_object()) {
    std::string_view key = kv.key();
    bool exception = false;
    for (auto e : kForbiddenExceptions) exception |= key == e;
    if (exception) continue;
    for (auto p : kForbiddenPrefixes)
      if (key.substr(0, p.size()) == p) {
        out.push_back(validation::field_forbidden(path.key(key), "set by the operator (the " + std::string(p) + " prefix is reserved)"));
        break;
      }
  }
}

// An update of status.clusterId: set once, never changed nor removed.
void validate_cluster_id(const json::Value& obj, const json::Value* old, Causes& out) {
  std::string_view was = member_string(old, {"status", "clusterId"});
  if (was.empty()) return;
  std::string_view now = member_string(&obj, {"status", "clusterId"});
  if (now != was)
    out.push_back(validation::field_invalid(FieldPath("status").child("clusterId"), jstr(now),
                                            "field is immutable: the KRaft cluster ID is set once (nodes formatted with it refuse another)"));
}

}  // namespace

std::vector<Cause> validate_kafka(const json::Value& obj, const json::Value* old) {
  Causes out;
  FieldPath kafka = FieldPath("spec").child("kafka");
  const json::Value* k = member(&obj, {"spec", "kafka"});
  if (!k || !k->is_object()) {
    out.push_back(validation::field_required(kafka, ""));
    return out;
  }
  validate_listeners(member(k, {"listeners"}), kafka.child("listeners"), out);
  validate_config(member(k, {"config"}), kafka.child("config"), out);
  validate_metrics(member(k, {"metricsConfig"}), kafka.child("metricsConfig"), out);
  validate_rack(member(k, {"rack"}), kafka.child("rack"), out);
  validate_certificate_authority(member(&obj, {"spec", "clusterCa"}), FieldPath("spec").child("clusterCa"), out);
  validate_certificate_authority(member(&obj, {"spec", "clientsCa"}), FieldPath("spec").child("clientsCa"), out);

  std::string_view version = member_string(k, {"version"});
  std::string_view metadata = member_string(k, {"metadataVersion"});
  // A release Capstan runs (Strimzi's image of it exists), and the metadata version the cluster
  // runs: the spec's, else the release's own.
  const KafkaRelease* release = kafka_release(version.empty() ? kDefaultKafkaVersion : version);
  if (!release) {
    std::vector<std::string> supported;
    for (const auto& r : kKafkaReleases) supported.emplace_back(r.version);
    out.push_back(validation::field_not_supported(kafka.child("version"), jstr(version), supported));
  }
  const std::string_view effective = !metadata.empty() ? metadata : release ? release->metadata_version : kDefaultMetadataVersion;
  auto kv = parse_kafka_version(release ? release->version : kDefaultKafkaVersion);
  auto mv = parse_metadata_version(effective);
  // Known to the pinned release's table (metadata_versions.h): the reconciler upgrades the
  // cluster to this name's feature level, and a broker refuses a level it does not know.
  const auto level = metadata_version_level(effective);
  if (!metadata.empty() && !mv)
    out.push_back(validation::field_invalid(kafka.child("metadataVersion"), jstr(metadata), "must be a KRaft metadata version such as 4.1-IV1"));
  else if (release && kv && mv && !metadata.empty() && std::tuple(mv->major, mv->minor) > std::tuple(kv->major, kv->minor))
    out.push_back(validation::field_invalid(kafka.child("metadataVersion"), jstr(metadata),
                                            "is higher than the Kafka version " + std::string(release->version)));
  else if (!metadata.empty() && !level)
    out.push_back(validation::field_invalid(kafka.child("metadataVersion"), jstr(metadata),
                                            "is not a metadata version of Kafka " + std::string(kDefaultKafkaVersion) + " (" +
                                                std::string(kMetadataVersionRange) + ")"));
  if (old && level) {
    // Kafka does not support downgrading the KRaft metadata (Strimzi refuses it too): the level
    // may only stay or rise. A Kafka downgrade is possible when the older release runs the
    // cluster's metadata version (set in the spec).
    std::string_view was = member_string(old, {"spec", "kafka", "metadataVersion"});
    const std::string_view was_version = member_string(old, {"spec", "kafka", "version"});
    const KafkaRelease* was_release = kafka_release(was_version.empty() ? kDefaultKafkaVersion : was_version);
    if (was.empty() && was_release) was = was_release->metadata_version;
    const auto was_level = metadata_version_level(was);
    if (was_level && *level < *was_level) {
      if (!metadata.empty())
        out.push_back(validation::field_forbidden(kafka.child("metadataVersion"), "the metadata version cannot be downgraded (from " +
                                                                                      std::string(was) + " to " + std::string(metadata) + ")"));
      else if (release)  // the release's own metadata version is older than the one the cluster runs
        out.push_back(validation::field_forbidden(kafka.child("version"), "Kafka " + std::string(release->version) + " runs metadata versions up to " +
                                                                              std::string(effective) + ", and the cluster's is " + std::string(was) +
                                                                              ", which cannot be downgraded"));
    }
  }
  return out;
}

std::vector<Cause> validate_kafka_node_pool(const json::Value& obj, const json::Value* old) {
  Causes out;
  FieldPath spec("spec");
  if (const auto* r = member(&obj, {"spec", "replicas"})) {
    if (!r->is_int64() || r->as_int64() < 0 || r->as_int64() > kMaxNodes)
      out.push_back(validation::field_invalid(spec.child("replicas"), *r, "must be between 0 and " + std::to_string(kMaxNodes) + ", inclusive"));
  } else {
    out.push_back(validation::field_required(spec.child("replicas"), ""));
  }

  bool controller = false;
  const auto* roles = member(&obj, {"spec", "roles"});
  if (!roles || !roles->is_array() || roles->get_array().empty()) {
    out.push_back(validation::field_required(spec.child("roles"), "a node pool needs the controller role, the broker role or both"));
  } else {
    std::set<std::string> seen;
    const auto& arr = roles->get_array();
    for (std::size_t i = 0; i < arr.size(); ++i) {
      std::string_view r = arr[i].is_string() ? std::string_view(arr[i].get_string()) : std::string_view();
      if (r != "controller" && r != "broker") out.push_back(validation::field_not_supported(spec.child("roles").index(i), arr[i], {"broker", "controller"}));
      else if (!seen.insert(std::string(r)).second) out.push_back(validation::field_duplicate(spec.child("roles").index(i), arr[i]));
      controller |= r == "controller";
    }
  }

  validate_node_pool_storage(member(&obj, {"spec", "storage"}), old ? member(old, {"spec", "storage"}) : nullptr, spec.child("storage"), out);

  if (old) {
    bool was_controller = false;
    if (const auto* oroles = member(old, {"spec", "roles"}); oroles && oroles->is_array())
      for (const auto& r : oroles->get_array()) was_controller |= r.is_string() && r.get_string() == "controller";
    if (roles && roles->is_array() && !roles->get_array().empty() && was_controller != controller)
      out.push_back(validation::field_forbidden(spec.child("roles"), std::string("the controller role cannot be ") +
                                                                         (controller ? "added to" : "removed from") +
                                                                         " an existing node pool: the KRaft controller quorum is static"));
    const json::Value* olabels = member(old, {"metadata", "labels"});
    std::string_view ocluster = member_string(olabels, {kClusterLabel});
    std::string_view cluster = member_string(member(&obj, {"metadata", "labels"}), {kClusterLabel});
    if (!ocluster.empty() && cluster != ocluster)
      out.push_back(validation::field_invalid(FieldPath("metadata").child("labels").key(kClusterLabel), jstr(cluster),
                                              "field is immutable: a node pool cannot move to another Kafka cluster (was " +
                                                  std::string(ocluster) + ")"));
  }
  return out;
}

std::vector<Cause> validate_status_update(const json::Value& obj, const json::Value& old) {
  Causes out;
  validate_cluster_id(obj, &old, out);
  return out;
}

std::vector<std::string> kafka_node_pool_warnings(const json::Value& obj) {
  std::vector<std::string> out;
  if (member_string(member(&obj, {"metadata", "labels"}), {kClusterLabel}).empty())
    out.push_back("metadata.labels[" + std::string(kClusterLabel) + "]: no Kafka cluster uses a node pool without this label");
  return out;
}

}  // namespace capstan::apis::kafka::v1
