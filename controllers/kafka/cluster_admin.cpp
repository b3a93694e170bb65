#include "controllers/kafka/cluster_admin.h"

#include "controllers/kafka/acls.h"
#include "controllers/kafka/topic_configs.h"
#include "controllers/kafka/features.h"
#include "controllers/kafka/objects.h"
#include "controllers/kafka/quotas.h"
#include "controllers/kafka/scram.h"
#include "controllers/kafka/wire.h"
#include "runtime/log/log.h"
#include "runtime/pki/digest.h"

#include <librdkafka/rdkafka.h>
#include <netdb.h>

#include <algorithm>

#include <mutex>

#include <vector>

namespace capstan::kafka {
namespace {

using std::chrono::milliseconds;

struct QueueDeleter {
  void operator()(rd_kafka_queue_t* q) const { rd_kafka_queue_destroy(q); }
};
struct EventDeleter {
  void operator()(rd_kafka_event_t* e) const { rd_kafka_event_destroy(e); }
};
struct OptionsDeleter {
  void operator()(rd_kafka_AdminOptions_t* o) const { rd_kafka_AdminOptions_destroy(o); }
};
using Queue = std::unique_ptr<rd_kafka_queue_t, QueueDeleter>;
using Event = std::unique_ptr<rd_kafka_event_t, EventDeleter>;
using Options = std::unique_ptr<rd_kafka_AdminOptions_t, OptionsDeleter>;

int ms(milliseconds d) { return static_cast<int>(d.count()); }

[[noreturn]] void fail(rd_kafka_resp_err_t err, const std::string& what, const char* detail) {
  throw AdminError(rd_kafka_err2name(err), what + ": " + rd_kafka_err2name(err) + ": " + (detail && *detail ? detail : rd_kafka_err2str(err)));
}

// librdkafka's own log lines (connection retries and the like) at debug: what matters reaches
// the caller as an AdminError.
void log_line(const rd_kafka_t*, int level, const char* facility, const char* message) {
  log::debug("librdkafka", {{"level", level}, {"facility", facility}, {"message", message}});
}

// A topic result's error, thrown unless it is one of `ok`.
void check(const rd_kafka_topic_result_t* r, const std::string& what, std::initializer_list<rd_kafka_resp_err_t> ok = {}) {
  rd_kafka_resp_err_t err = rd_kafka_topic_result_error(r);
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR) return;
  for (auto e : ok)
    if (err == e) return;
  fail(err, what, rd_kafka_topic_result_error_string(r));
}

}  // namespace

struct ClusterAdmin::Impl {
  rd_kafka_t* handle = nullptr;
  milliseconds timeout;
  std::string bootstrap;
  std::map<std::string, std::string> address_map;
  std::optional<ClientTls> tls;

  // The connection of our own requests, kept between them (a TLS handshake per request costs
  // more than the request), one request at a time.
  std::mutex raw_mu;
  std::unique_ptr<wire::Connection> raw;

  // One request of our own encoding (flexible `version`) to the first bootstrap address; its
  // response's body. A connection that fails is dropped (its state is unknown after a partial
  // answer); a kept one that fails is replaced once, since the broker closes idle connections
  // (connections.max.idle.ms). `bound`: this call's own timeout (connecting included), when
  // shorter than the admin's.
  std::string raw_call(std::int16_t api_key, std::int16_t version, const std::string& body, const std::string& what,
                       std::optional<milliseconds> bound = std::nullopt) {
    if (bound) bound = std::min(*bound, timeout);
    std::lock_guard<std::mutex> lock(raw_mu);
    for (bool kept = raw != nullptr;; kept = false) {
      if (!raw) raw = std::make_unique<wire::Connection>(bootstrap.substr(0, bootstrap.find(',')), address_map, tls, timeout, bound);
      try {
        return raw->call(api_key, version, body, what, bound);
      } catch (const AdminError& e) {
        raw.reset();
        if (!kept || e.code() == "_TIMED_OUT") throw;
        log::debug("kafka connection replaced", {{"bootstrap", bootstrap}, {"request", what}, {"error", e.what()}});
      } catch (...) {
        raw.reset();
        throw;
      }
    }
  }

  Options options(rd_kafka_admin_op_t op, bool operation_timeout = false) {
    Options o(rd_kafka_AdminOptions_new(handle, op));
    char err[256];
    rd_kafka_AdminOptions_set_request_timeout(o.get(), ms(timeout), err, sizeof err);
    // The broker answers once the change reached the controller quorum (or the timeout passed).
    if (operation_timeout) rd_kafka_AdminOptions_set_operation_timeout(o.get(), ms(timeout), err, sizeof err);
    return o;
  }

  // Sends one Admin API request (`send` with the handle, options and a reply queue) and waits
  // for its result; throws on a request-level error or the timeout.
  template <class Send>
  Event call(rd_kafka_admin_op_t op, bool operation_timeout, const std::string& what, Send&& send) {
    Queue q(rd_kafka_queue_new(handle));
    auto opts = options(op, operation_timeout);
    send(handle, opts.get(), q.get());
    rd_kafka_event_t* ev = rd_kafka_queue_poll(q.get(), ms(timeout) + 5000);
    if (!ev) throw AdminError("_TIMED_OUT", what + ": no answer from " + bootstrap + " within " + std::to_string(timeout.count()) + " ms");
    Event e(ev);
    if (rd_kafka_event_error(ev) != RD_KAFKA_RESP_ERR_NO_ERROR) fail(rd_kafka_event_error(ev), what, rd_kafka_event_error_string(ev));
    return e;
  }
};

namespace {

// getaddrinfo through the address map: "node:service" mapped resolves where the map says.
int resolve_mapped(const char* node, const char* service, const struct addrinfo* hints, struct addrinfo** res, void* opaque) {
  if (!node && !service && !hints) {
    freeaddrinfo(*res);
    return 0;
  }
  const auto& map = static_cast<ClusterAdmin::Impl*>(opaque)->address_map;
  if (node && service) {
    if (auto it = map.find(std::string(node) + ":" + service); it != map.end()) {
      const auto colon = it->second.rfind(':');
      return getaddrinfo(it->second.substr(0, colon).c_str(), it->second.substr(colon + 1).c_str(), hints, res);
    }
  }
  return getaddrinfo(node, service, hints, res);
}

}  // namespace

ClusterAdmin::ClusterAdmin(const std::string& bootstrap, milliseconds timeout, std::map<std::string, std::string> address_map,
                           const std::optional<ClientTls>& tls)
    : impl_(std::make_unique<Impl>()) {
  impl_->timeout = timeout;
  impl_->bootstrap = bootstrap;
  impl_->address_map = std::move(address_map);
  impl_->tls = tls;
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char err[512];
  std::vector<std::pair<std::string, std::string>> settings{
      {"bootstrap.servers", bootstrap}, {"client.id", "capstan-topic-operator"}, {"log_level", "6"}};
  if (tls) {
    settings.insert(settings.end(), {{"security.protocol", "ssl"},
                                     {"ssl.endpoint.identification.algorithm", "https"},
                                     {"ssl.ca.pem", tls->ca_pem},
                                     {"ssl.certificate.pem", tls->certificate_pem},
                                     {"ssl.key.pem", tls->key_pem}});
  }
  for (const auto& [k, v] : settings) {
    if (rd_kafka_conf_set(conf, k.c_str(), v.c_str(), err, sizeof err) != RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      // Never the value: it may be a key.
      throw AdminError("_INVALID_ARG", "Kafka client setting " + k + ": " + err);
    }
  }
  rd_kafka_conf_set_log_cb(conf, log_line);
  rd_kafka_conf_set_opaque(conf, impl_.get());
  rd_kafka_conf_set_resolve_cb(conf, resolve_mapped);
  impl_->handle = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);  // owns conf on success
  if (!impl_->handle) {
    rd_kafka_conf_destroy(conf);
    throw AdminError("_FAIL", std::string("Kafka client for ") + bootstrap + ": " + err);
  }
}

ClusterAdmin::~ClusterAdmin() {
  if (impl_->handle) rd_kafka_destroy(impl_->handle);
}

std::optional<TopicState> ClusterAdmin::describe(const std::string& topic) {
  const rd_kafka_metadata_t* md = nullptr;
  if (auto err = rd_kafka_metadata(impl_->handle, 1, nullptr, &md, ms(impl_->timeout)); err != RD_KAFKA_RESP_ERR_NO_ERROR)
    fail(err, "reading the metadata of topic " + topic + " from " + impl_->bootstrap, nullptr);
  std::optional<TopicState> out;
  for (int i = 0; i < md->topic_cnt; ++i) {
    const auto& t = md->topics[i];
    if (topic != t.topic) continue;
    if (t.err == RD_KAFKA_RESP_ERR_NO_ERROR) out = TopicState{t.partition_cnt, t.partition_cnt > 0 ? t.partitions[0].replica_cnt : 0};
    else if (t.err != RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART) {
      auto err = t.err;
      rd_kafka_metadata_destroy(md);
      fail(err, "reading the metadata of topic " + topic, nullptr);
    }
  }
  rd_kafka_metadata_destroy(md);
  return out;
}

void ClusterAdmin::create(const std::string& topic, int partitions, int replicas, const std::map<std::string, std::string>& configs) {
  const std::string what = "creating topic " + topic;
  char err[512];
  rd_kafka_NewTopic_t* t = rd_kafka_NewTopic_new(topic.c_str(), partitions, replicas, err, sizeof err);
  if (!t) throw AdminError("_INVALID_ARG", what + ": " + err);
  for (const auto& [k, v] : configs) rd_kafka_NewTopic_set_config(t, k.c_str(), v.c_str());
  Event ev = impl_->call(RD_KAFKA_ADMIN_OP_CREATETOPICS, true, what, [&](auto* h, auto* o, auto* q) { rd_kafka_CreateTopics(h, &t, 1, o, q);
    rd_kafka_NewTopic_destroy(t);  // copied by the call
  });
  size_t n = 0;
  const rd_kafka_topic_result_t** results = rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev.get()), &n);
  for (size_t i = 0; i < n; ++i) check(results[i], what);
}

void ClusterAdmin::create_partitions(const std::string& topic, int total) {
  const std::string what = "adding partitions to topic " + topic + " (to " + std::to_string(total) + ")";
  char err[512];
  rd_kafka_NewPartitions_t* p = rd_kafka_NewPartitions_new(topic.c_str(), static_cast<size_t>(total), err, sizeof err);
  if (!p) throw AdminError("_INVALID_ARG", what + ": " + err);
  Event ev = impl_->call(RD_KAFKA_ADMIN_OP_CREATEPARTITIONS, true, what,
                         [&](auto* h, auto* o, auto* q) { rd_kafka_CreatePartitions(h, &p, 1, o, q);
    rd_kafka_NewPartitions_destroy(p);
  });
  size_t n = 0;
  const rd_kafka_topic_result_t** results = rd_kafka_CreatePartitions_result_topics(rd_kafka_event_CreatePartitions_result(ev.get()), &n);
  for (size_t i = 0; i < n; ++i) check(results[i], what);
}

namespace {

// The config resources of a DescribeConfigs result, each error thrown.
void check(const rd_kafka_ConfigResource_t** resources, size_t n, const std::string& what) {
  for (size_t i = 0; i < n; ++i)
    if (auto e = rd_kafka_ConfigResource_error(resources[i]); e != RD_KAFKA_RESP_ERR_NO_ERROR)
      fail(e, what, rd_kafka_ConfigResource_error_string(resources[i]));
}

}  // namespace

std::map<std::string, std::string> ClusterAdmin::overrides(const std::string& topic) {
  const std::string what = "reading the configuration of topic " + topic;
  rd_kafka_ConfigResource_t* r = rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, topic.c_str());
  Event ev = impl_->call(RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS, false, what,
                         [&](auto* h, auto* o, auto* q) { rd_kafka_DescribeConfigs(h, &r, 1, o, q);
    rd_kafka_ConfigResource_destroy(r);
  });
  size_t n = 0;
  const rd_kafka_ConfigResource_t** resources = rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(ev.get()), &n);
  check(resources, n, what);
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < n; ++i) {
    size_t m = 0;
    const rd_kafka_ConfigEntry_t** entries = rd_kafka_ConfigResource_configs(resources[i], &m);
    for (size_t j = 0; j < m; ++j) {
      if (rd_kafka_ConfigEntry_source(entries[j]) != RD_KAFKA_CONFIG_SOURCE_DYNAMIC_TOPIC_CONFIG) continue;
      const char* value = rd_kafka_ConfigEntry_value(entries[j]);
      out[rd_kafka_ConfigEntry_name(entries[j])] = value ? value : "";
    }
  }
  return out;
}

void ClusterAdmin::alter_overrides(const std::string& topic, const std::map<std::string, std::string>& set,
                                   const std::vector<std::string>& remove) {
  if (set.empty() && remove.empty()) return;
  const std::string what = "changing the configuration of topic " + topic + " in " + impl_->bootstrap;
  const auto body = impl_->raw_call(wire::kIncrementalAlterConfigs, wire::kIncrementalAlterConfigsVersion,
                                    wire::alter_topic_configs_request(topic, set, remove), what);
  wire::check_alter_configs_response(body, topic, what);
}

void ClusterAdmin::remove(const std::string& topic) {
  const std::string what = "deleting topic " + topic;
  rd_kafka_DeleteTopic_t* t = rd_kafka_DeleteTopic_new(topic.c_str());
  Event ev = impl_->call(RD_KAFKA_ADMIN_OP_DELETETOPICS, true, what, [&](auto* h, auto* o, auto* q) { rd_kafka_DeleteTopics(h, &t, 1, o, q);
    rd_kafka_DeleteTopic_destroy(t);
  });
  size_t n = 0;
  const rd_kafka_topic_result_t** results = rd_kafka_DeleteTopics_result_topics(rd_kafka_event_DeleteTopics_result(ev.get()), &n);
  for (size_t i = 0; i < n; ++i) check(results[i], what, {RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART});
}

std::vector<PartitionReplicas> ClusterAdmin::partitions(std::optional<milliseconds> timeout) {
  const rd_kafka_metadata_t* md = nullptr;
  const milliseconds bound = timeout ? std::min(*timeout, impl_->timeout) : impl_->timeout;
  if (auto err = rd_kafka_metadata(impl_->handle, 1, nullptr, &md, ms(bound)); err != RD_KAFKA_RESP_ERR_NO_ERROR)
    fail(err, "reading the partition replicas from " + impl_->bootstrap, nullptr);
  std::vector<PartitionReplicas> out;
  for (int t = 0; t < md->topic_cnt; ++t)
    for (int p = 0; p < md->topics[t].partition_cnt; ++p) {
      const auto& partition = md->topics[t].partitions[p];
      out.push_back({md->topics[t].topic, partition.id, std::vector<std::int32_t>(partition.replicas, partition.replicas + partition.replica_cnt),
                     std::vector<std::int32_t>(partition.isrs, partition.isrs + partition.isr_cnt)});
    }
  rd_kafka_metadata_destroy(md);
  return out;
}

std::set<std::int32_t> ClusterAdmin::holding_replicas(const std::set<std::int32_t>& brokers) {
  std::set<std::int32_t> out;
  for (const auto& p : partitions())
    for (auto r : p.replicas)
      if (brokers.count(r)) out.insert(r);
  return out;
}

std::set<AclBinding> ClusterAdmin::acls(const std::string& principal) {
  const std::string what = "describing the ACLs of " + principal + " in " + impl_->bootstrap;
  const auto body = impl_->raw_call(wire::kDescribeAcls, wire::kAclsVersion, wire::describe_acls_request(principal), what);
  try {
    return wire::parse_describe_acls_response(body, what);
  } catch (const AdminError& e) {
    if (e.code() != "SECURITY_DISABLED") throw;
    return {};  // a cluster without an authorizer holds no ACLs (creating one there is refused, naming it)
  }
}

void ClusterAdmin::create_acls(const std::vector<AclBinding>& acls) {
  if (acls.empty()) return;
  const std::string what = "creating ACLs in " + impl_->bootstrap;
  const auto body = impl_->raw_call(wire::kCreateAcls, wire::kAclsVersion, wire::create_acls_request(acls), what);
  wire::check_create_acls_response(body, acls, what);
}

void ClusterAdmin::delete_acls(const std::vector<AclBinding>& acls) {
  if (acls.empty()) return;
  const std::string what = "deleting ACLs in " + impl_->bootstrap;
  const auto body = impl_->raw_call(wire::kDeleteAcls, wire::kAclsVersion, wire::delete_acls_request(acls), what);
  wire::check_delete_acls_response(body, acls, what);
}

std::set<std::string> ClusterAdmin::scram_users(const std::vector<std::string>& users) {
  if (users.empty()) return {};
  const std::string what = "describing the SCRAM credentials of " + users.front() + (users.size() > 1 ? " and others" : "");
  const auto body = impl_->raw_call(wire::kDescribeUserScramCredentials, 0, wire::describe_scram_request(users), what);
  const auto found = wire::parse_describe_scram_response(body, what);
  return {found.begin(), found.end()};
}

void ClusterAdmin::set_scram_password(const std::string& user, std::string_view password) {
  const std::string what = "setting the SCRAM-SHA-512 credential of " + user;
  const auto body = impl_->raw_call(wire::kAlterUserScramCredentials, 0, wire::alter_scram_request({{user, scram_sha512_credential(password)}}, {}), what);
  wire::check_alter_scram_response(body, {}, what);
}

void ClusterAdmin::delete_scram(const std::string& user) {
  const std::string what = "deleting the SCRAM-SHA-512 credential of " + user;
  const auto body = impl_->raw_call(wire::kAlterUserScramCredentials, 0, wire::alter_scram_request({}, {user}), what);
  wire::check_alter_scram_response(body, {user}, what);
}

Quotas ClusterAdmin::user_quotas(const std::string& user) {
  const std::string what = "describing the quotas of user " + user;
  const auto body = impl_->raw_call(wire::kDescribeClientQuotas, 1, wire::describe_user_quotas_request(user), what);
  return wire::parse_describe_quotas_response(body, user, what);
}

void ClusterAdmin::alter_user_quotas(const std::string& user, const Quotas& set, const std::vector<std::string>& remove) {
  if (set.empty() && remove.empty()) return;
  const std::string what = "altering the quotas of user " + user;
  const auto body = impl_->raw_call(wire::kAlterClientQuotas, 1, wire::alter_user_quotas_request(user, set, remove), what);
  wire::check_alter_quotas_response(body, what);
}

std::optional<std::int16_t> ClusterAdmin::metadata_version_level(std::optional<milliseconds> timeout) {
  const std::string what = "reading the finalized metadata.version of " + impl_->bootstrap;
  const auto body = impl_->raw_call(wire::kApiVersions, 3, wire::api_versions_request(), what, timeout);
  return wire::parse_finalized_feature(body, wire::kMetadataVersionFeature, what);
}

QuorumState ClusterAdmin::quorum(std::optional<milliseconds> timeout) {
  const std::string what = "describing the controller quorum through " + impl_->bootstrap;
  const auto body = impl_->raw_call(wire::kDescribeQuorum, wire::kDescribeQuorumVersion, wire::describe_quorum_request(), what, timeout);
  return wire::parse_describe_quorum_response(body, what);
}

void ClusterAdmin::upgrade_metadata_version(std::int16_t level) {
  const std::string what = "upgrading the metadata.version of " + impl_->bootstrap + " to level " + std::to_string(level);
  const auto body = impl_->raw_call(wire::kUpdateFeatures, 1, wire::upgrade_feature_request(wire::kMetadataVersionFeature, level, ms(impl_->timeout)),
                                    what);
  wire::check_update_features_response(body, what);
}

std::string ClusterAdmins::bootstrap(std::string_view cluster, std::string_view ns) const {
  return bootstrap_service_name(cluster) + "." + std::string(ns) + ".svc:9091";
}

std::shared_ptr<ClusterAdmin> ClusterAdmins::for_cluster(std::string_view cluster, std::string_view ns) {
  const std::string address = bootstrap(cluster, ns);
  const std::optional<ClientTls> tls = credentials_ ? credentials_(cluster, ns) : std::nullopt;
  const std::string fingerprint = tls ? pki::sha256_hex(tls->ca_pem + tls->certificate_pem + tls->key_pem, 16) : "";
  std::lock_guard<std::mutex> l(mu_);
  const auto now = std::chrono::steady_clock::now();
  for (auto it = admins_.begin(); it != admins_.end();) {
    if (it->first != address && now - it->second.used > idle_) it = admins_.erase(it);
    else ++it;
  }
  auto& e = admins_[address];
  if (!e.admin || e.credentials != fingerprint) {  // new, or its certificate was renewed
    e.admin = std::make_shared<ClusterAdmin>(address, timeout_, address_map_, tls);
    e.credentials = fingerprint;
  }
  e.used = now;
  return e.admin;
}

}  // namespace capstan::kafka
