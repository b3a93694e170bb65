#include "controllers/kafka/user_controller.h"

#include "apis/certs/v1/group.h"
#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1/types.h"
#include "apis/kafka/v1/validation.h"
#include "controllers/kafka/objects.h"
#include "controllers/kafka/quotas.h"
#include "controllers/kafka/ready_status.h"
#include "controllers/kafka/scram.h"
#include "controllers/kafka/security.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/controller/finalizer.h"
#include "runtime/controller/status.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/core_types.h"
#include "runtime/meta/object.h"
#include "runtime/pki/digest.h"

#include <set>

namespace capstan::kafka {
namespace {

namespace v1 = apis::kafka::v1;
using controller::set_condition;
using std::chrono::milliseconds;

constexpr milliseconds kRetry{10'000};

void write_finalizer(client::Client& c, const json::Value& obj, bool present) {
  controller::write_finalizer(c, v1::kKafkaUserType.gvr, obj, v1::kUserFinalizer, present);
}

json::Object user_labels(const std::string& cluster) {
  return json::Object{{v1::kClusterLabel, cluster}, {v1::kKindLabel, v1::kKafkaUserKind}, {"app.kubernetes.io/managed-by", "capstan-kafka"}};
}

// Strimzi's keys of a tls user's Secret beside the certificate's own (tls.crt, tls.key, ca.crt,
// keystore.p12): user.crt, user.key and user.p12 mirror them; user.password opens user.p12.
constexpr std::string_view kUserPassword = "user.password";
constexpr std::pair<std::string_view, std::string_view> kUserMirrors[] = {
    {"tls.crt", "user.crt"}, {"tls.key", "user.key"}, {"keystore.p12", "user.p12"}};

// The user's client certificate from the clients CA; the principal User:CN=<name>. Its PKCS#12
// store (Modern2023: AES-256, SHA-256 MAC, read by Java 12 and later) opens with user.password.
json::Value user_certificate(const json::Value& user, const std::string& cluster, const json::Value& kafka) {
  const std::string name(meta::name_of(user));
  const CertificateLifetime lifetime = certificate_lifetime(kafka, CaRole::Clients);  // spec.clientsCa's, as Strimzi's
  json::Object pkcs12{{"create", true},
                      {"profile", "Modern2023"},
                      {"passwordSecretRef", json::Object{{"name", name}, {"key", kUserPassword}}}};
  return leaf_certificate(user, name, user_labels(cluster), name, clients_ca_name(cluster), json::Array{"client auth", "digital signature"},
                          {{"keystores", json::Object{{"pkcs12", std::move(pkcs12)}}},
                           {"duration", lifetime.duration},
                           {"renewBefore", lifetime.renew_before}});
}

// The Secret of a scram-sha-512 user, as Strimzi's user operator writes it.
json::Value password_secret(const json::Value& user, const std::string& cluster, const std::string& password) {
  const std::string name(meta::name_of(user));
  return json::Object{{"apiVersion", "v1"},
                      {"kind", "Secret"},
                      {"metadata", owned_metadata(user, name, user_labels(cluster))},
                      {"type", "Opaque"},
                      {"data", json::Object{{"password", meta::base64_encode(password)},
                                            {"sasl.jaas.config", meta::base64_encode(scram_jaas_config(name, password))}}}};
}

// A Secret's key, decoded; nullopt when the Secret or the key is not there.
std::optional<std::string> secret_value(client::Client& c, const std::string& ns, const std::string& name, const std::string& key,
                                        json::Value* secret = nullptr) {
  try {
    json::Value s = c.get(meta::core::kSecretType.gvr, ns, name);
    auto value = json::find(s, {"data", key});
    std::optional<std::string> out;
    if (value && value->is_string()) out = meta::base64_decode(value->as_string());
    if (secret) *secret = std::move(s);
    return out;
  } catch (const client::ApiError& e) {
    if (client::is_not_found(e)) return std::nullopt;
    throw;
  }
}

std::set<AclBinding> desired_acls(const v1::KafkaUserSpec& spec, const std::string& principal) {
  std::set<AclBinding> out;
  if (!spec.authorization) return out;
  for (const auto& rule : spec.authorization->acls)
    for (const auto& op : rule.operations)
      out.insert({rule.resource.type, rule.resource.type == "cluster" ? "kafka-cluster" : rule.resource.name,
                  rule.resource.type == "cluster" ? "literal" : rule.resource.pattern_type, principal, rule.host.empty() ? "*" : rule.host, op,
                  rule.type.empty() ? "allow" : rule.type});
  return out;
}

class UserReconciler {
 public:
  UserReconciler(UserEnv& env, const controller::Request& r, controller::Context& ctx) : env_(env), req_(r), ctx_(ctx) {}

  controller::Result run() {
    auto cached = env_.users.get(req_.ns, req_.name);
    if (!cached) return controller::Result::done();
    before_ = cached->value();
    cluster_ = std::string(meta::label(before_, v1::kClusterLabel));
    tls_ = json::get_string(before_, {"spec", "authentication", "type"}) == "tls";
    scram_ = json::get_string(before_, {"spec", "authentication", "type"}) == "scram-sha-512";
    principal_ = user_principal(req_.name, tls_);
    if (cached->deleting()) return finalize();
    try {
      user_ = v1::KafkaUser::from_json(before_);
    } catch (const apis::codec::DecodeError& e) {  // written around the CRD schema: said on this object only
      return write_not_ready(env_.client, v1::kKafkaUserType, before_, v1::reason::kInvalidResourceTopic, e.what(), env_.options.full_reconciliation);
    }
    std::string errors;
    for (const auto& c : v1::validate_kafka_user(before_)) errors += (errors.empty() ? "" : "; ") + c.error();
    if (!errors.empty()) return not_ready(v1::reason::kInvalidResourceTopic, errors, env_.options.full_reconciliation);
    auto kafka = env_.kafkas.get(req_.ns, cluster_);
    if (!kafka || kafka->deleting())
      return not_ready(v1::reason::kKafkaError, "Kafka cluster " + req_.ns + "/" + cluster_ + " not found (a KafkaUser lives in its Kafka's namespace)",
                       env_.options.full_reconciliation);
    if (tls_ && !env_.options.certificates)
      return not_ready(v1::reason::kCertificatesUnavailable,
                       "authentication tls needs the certificates controller, which issues the user's certificate from the clients CA",
                       env_.options.full_reconciliation);

    write_finalizer(env_.client, before_, true);  // before any ACL exists, so that none outlives its KafkaUser
    auto& status = user_.status;
    // The principal the last reconcile kept in Kafka: another one when the authentication type
    // changed (tls names User:CN=<name>, the others User:<name>).
    const std::string previous = status.username;
    const bool had_secret = !status.secret.empty();
    status.username = principal_name();
    status.secret.clear();
    if (tls_) {
      write_tls_user_keys();  // user.password first: the Certificate's keystore reads it
      env_.client.apply(apis::certs::v1::kCertificateType.gvr, req_.ns, user_certificate(before_, cluster_, kafka->value()), kFieldManager, true);
      status.secret = req_.name;
    }
    // No longer tls: its certificate and the Secret holding it go (a scram-sha-512 user gets a
    // fresh Secret below). Neither scram-sha-512 nor tls: the password Secret goes. (A tls user's
    // keys replaced the password keys of a former scram-sha-512 user already.)
    if (!tls_ && previous.starts_with("CN=")) drop_tls_user();
    if (!scram_ && !tls_ && had_secret) drop_password_secret();
    if (scram_) {
      auto password = write_password_secret();
      if (!password) return controller::Result::after(env_.options.full_reconciliation);  // said on the status
      password_ = std::move(*password);
      status.secret = req_.name;
    }
    auto kafka_ready = meta::find_condition(kafka->value(), v1::condition::kReady);
    if (!kafka_ready || kafka_ready->status != "True")
      return not_ready(v1::reason::kKafkaError, "Kafka cluster " + req_.ns + "/" + cluster_ + " is not ready yet", kRetry);
    try {
      if (!previous.empty() && previous != principal_name()) drop_principal(previous);
      sync_scram();
      sync_quotas();
      sync_acls();
    } catch (const AdminError& e) {
      ctx_.log.warn("user not reconciled in Kafka", {{"principal", principal_}, {"error", e.what()}});
      return not_ready(v1::reason::kKafkaError, e.what(), kRetry);
    }
    status.observed_generation = meta::generation_of(before_);
    set_condition(status.conditions, v1::condition::kReady, "True", "", "", status.observed_generation);
    controller::write_status(env_.client, v1::kKafkaUserType.gvr, before_, status);
    return controller::Result::after(env_.options.full_reconciliation);
  }

 private:
  std::shared_ptr<ClusterAdmin> admin() { return env_.admins->for_cluster(cluster_, req_.ns); }

  // The password of a scram-sha-512 user: the one its spec names, else the one generated before
  // (kept in the user's Secret), else a new one; the user's Secret carries it. nullopt (and a
  // Ready=False status naming the field) when the named Secret or key is missing.
  std::optional<std::string> write_password_secret() {
    json::Value own;
    std::optional<std::string> password;
    const auto& given = user_.spec.authentication->password;
    if (given) {
      const auto& ref = given->value_from.secret_key_ref;
      password = secret_value(env_.client, req_.ns, ref.name, ref.key);
      if (!password || password->empty()) {
        not_ready(v1::reason::kInvalidResourceTopic,
                  "spec.authentication.password.valueFrom.secretKeyRef: no Secret " + req_.ns + "/" + ref.name + " with a non-empty key " + ref.key,
                  env_.options.full_reconciliation);
        return std::nullopt;
      }
    }
    auto kept = secret_value(env_.client, req_.ns, req_.name, "password", &own);
    if (!password) password = kept && !kept->empty() ? *kept : random_password();
    const json::Value want = password_secret(before_, cluster_, *password);
    if (kept != password || json::find(own, {"data"}) == nullptr || *json::find(own, {"data"}) != want.at("data"))
      env_.client.apply(meta::core::kSecretType.gvr, req_.ns, want, kFieldManager, true);
    return password;
  }

  // The Secret of a user that authenticates neither with a password nor with a certificate.
  void drop_password_secret() {
    json::Value own;
    if (!secret_value(env_.client, req_.ns, req_.name, "password", &own)) return;
    client::DeleteOptions d;
    d.ignore_not_found = true;
    d.precondition_uid = std::string(meta::uid_of(own));
    env_.client.remove(meta::core::kSecretType.gvr, req_.ns, req_.name, d);
    ctx_.log.info("removed the password of a user no longer scram-sha-512", {{"user", req_.name}, {"secret", req_.name}});
  }

  // The user's Certificate and its Secret, when this KafkaUser controls them.
  void drop_tls_user() {
    const std::string uid(meta::uid_of(before_));
    for (const auto* type : {&apis::certs::v1::kCertificateType, &meta::core::kSecretType}) {
      json::Value obj;
      try {
        obj = env_.client.get(type->gvr, req_.ns, req_.name);
      } catch (const client::ApiError& e) {
        if (client::is_not_found(e)) continue;
        throw;
      }
      auto owner = meta::controller_of(obj);
      if (!owner || owner->uid != uid) continue;
      client::DeleteOptions d;
      d.ignore_not_found = true;
      d.precondition_uid = std::string(meta::uid_of(obj));
      env_.client.remove(type->gvr, req_.ns, req_.name, d);
    }
    ctx_.log.info("removed the certificate of a user no longer tls", {{"user", req_.name}});
  }

  // A tls user's Secret as Strimzi's user operator leaves it: user.password (generated once and
  // kept) and user.crt / user.key / user.p12 mirroring the certificate's keys once they exist.
  // The Secret is ours (labelled, owned by the KafkaUser); one apply of this manager's keys, which
  // also drops the password keys of a former scram-sha-512 user. Re-run when the certificates
  // controller rewrites the Secret (the user controller watches its users' Secrets).
  void write_tls_user_keys() {
    json::Value own;
    auto kept = secret_value(env_.client, req_.ns, req_.name, std::string(kUserPassword), &own);
    json::Object data{{kUserPassword, meta::base64_encode(kept && !kept->empty() ? *kept : random_password())}};
    for (auto [from, to] : kUserMirrors)
      if (const auto* v = json::find(own, {"data", from}); v && v->is_string()) data[to] = *v;
    const json::Value* have = json::find(own, {"data"});
    bool same = have && have->is_object() && !have->get_object().contains("password") &&
                !have->get_object().contains("sasl.jaas.config");
    for (const auto& kv : data) {
      const json::Value* v = same ? have->get_object().if_contains(kv.key()) : nullptr;
      same = v && *v == kv.value();
    }
    if (same) return;
    env_.client.apply(meta::core::kSecretType.gvr, req_.ns,
                      json::Object{{"apiVersion", "v1"},
                                   {"kind", "Secret"},
                                   {"metadata", owned_metadata(before_, req_.name, user_labels(cluster_))},
                                   {"data", std::move(data)}},
                      kFieldManager, true);
  }

  // The user's SCRAM-SHA-512 credential in Kafka: set when it is missing or the password changed
  // since this manager set it; deleted once the user authenticates otherwise.
  void sync_scram() {
    auto a = admin();
    const std::string key = req_.ns + "/" + cluster_ + "/" + req_.name;
    const bool present = a->scram_users({req_.name}).contains(req_.name);
    const std::string fingerprint = scram_ ? pki::sha256_hex(password_, 16) : "";
    std::string last;
    {
      std::lock_guard<std::mutex> lock(env_.scram_mu);
      if (auto it = env_.scram_set.find(key); it != env_.scram_set.end()) last = it->second;
    }
    if (!scram_) {
      if (present) a->delete_scram(req_.name);
      forget_scram(key);
      return;
    }
    if (present && last == fingerprint) return;
    a->set_scram_password(req_.name, password_);
    {
      std::lock_guard<std::mutex> lock(env_.scram_mu);
      env_.scram_set[key] = fingerprint;
    }
    ctx_.log.info("set the user's SCRAM-SHA-512 credential", {{"user", req_.name}, {"cluster", cluster_}});
  }

  // The user's client quotas in Kafka become exactly the spec's (none without spec.quotas).
  void sync_quotas() {
    Quotas want;
    if (const auto& q = user_.spec.quotas) {
      if (q->producer_byte_rate) want["producer_byte_rate"] = *q->producer_byte_rate;
      if (q->consumer_byte_rate) want["consumer_byte_rate"] = *q->consumer_byte_rate;
      if (q->request_percentage) want["request_percentage"] = *q->request_percentage;
      if (q->controller_mutation_rate) want["controller_mutation_rate"] = *q->controller_mutation_rate;
    }
    auto a = admin();
    const std::string entity = principal_name();
    const Quotas have = a->user_quotas(entity);
    Quotas set;
    std::vector<std::string> remove;
    for (const auto& [key, value] : want)
      if (auto it = have.find(key); it == have.end() || it->second != value) set[key] = value;
    for (const auto& [key, value] : have)
      if (!want.contains(key)) remove.push_back(key);
    if (set.empty() && remove.empty()) return;
    a->alter_user_quotas(entity, set, remove);
    ctx_.log.info("set the user's quotas", {{"user", entity},
                                            {"set", static_cast<std::int64_t>(set.size())},
                                            {"removed", static_cast<std::int64_t>(remove.size())}});
  }

  // The principal's name: the status' username and the quota entity (CN=<name> for tls, as
  // Strimzi names it).
  std::string principal_name() const { return principal_.substr(std::string_view("User:").size()); }

  void forget_scram(const std::string& key) {
    std::lock_guard<std::mutex> lock(env_.scram_mu);
    env_.scram_set.erase(key);
  }

  // The user's bindings in Kafka become exactly the spec's.
  void sync_acls() {
    auto a = admin();
    const auto want = desired_acls(user_.spec, principal_);
    const auto have = a->acls(principal_);
    std::vector<AclBinding> add, remove;
    for (const auto& b : want)
      if (!have.contains(b)) add.push_back(b);
    for (const auto& b : have)
      if (!want.contains(b)) remove.push_back(b);
    a->create_acls(add);
    a->delete_acls(remove);
    if (!add.empty() || !remove.empty())
      ctx_.log.info("set the user's ACLs", {{"principal", principal_},
                                            {"added", static_cast<std::int64_t>(add.size())},
                                            {"removed", static_cast<std::int64_t>(remove.size())}});
  }

  // Everything Kafka holds for the principal `name` (its ACLs and its quotas): a deleted user's,
  // or the one a user authenticated as before its authentication type changed.
  void drop_principal(const std::string& name) {
    auto a = admin();
    const std::string principal = "User:" + name;
    const auto have = a->acls(principal);
    a->delete_acls({have.begin(), have.end()});
    std::vector<std::string> quotas;
    for (const auto& [key, value] : a->user_quotas(name)) quotas.push_back(key);
    a->alter_user_quotas(name, {}, quotas);
    if (!have.empty() || !quotas.empty())
      ctx_.log.info("removed the principal's ACLs and quotas", {{"principal", principal},
                                                                {"acls", static_cast<std::int64_t>(have.size())},
                                                                {"quotas", static_cast<std::int64_t>(quotas.size())}});
  }

  // A deleted KafkaUser: its ACLs go first (unless its cluster is gone).
  controller::Result finalize() {
    if (!meta::has_finalizer(before_, v1::kUserFinalizer)) return controller::Result::done();
    auto kafka = env_.kafkas.get(req_.ns, cluster_);
    if (kafka && !kafka->deleting()) {
      try {
        drop_principal(principal_name());
        // Deleted before a change of its authentication type was reconciled: the earlier one too.
        const std::string previous(json::get_string(before_, {"status", "username"}));
        if (!previous.empty() && previous != principal_name()) drop_principal(previous);
        if (scram_) {
          admin()->delete_scram(req_.name);
          forget_scram(req_.ns + "/" + cluster_ + "/" + req_.name);
        }
      } catch (const AdminError& e) {
        ctx_.log.warn("user's ACLs not deleted", {{"principal", principal_}, {"error", e.what()}});
        return write_not_ready(env_.client, v1::kKafkaUserType, before_, v1::reason::kKafkaError, e.what(), kRetry);
      }
    }
    write_finalizer(env_.client, before_, false);
    return controller::Result::done();
  }

  controller::Result not_ready(std::string_view reason, const std::string& message, milliseconds again) {
    return write_not_ready(env_.client, v1::kKafkaUserType, before_, user_.status, reason, message, again);
  }

  UserEnv& env_;
  const controller::Request& req_;
  controller::Context& ctx_;
  json::Value before_;
  v1::KafkaUser user_;
  std::string cluster_, principal_, password_;
  bool tls_ = false, scram_ = false;
};

}  // namespace

std::string user_principal(std::string_view name, bool tls) { return "User:" + std::string(tls ? "CN=" : "") + std::string(name); }

controller::Result reconcile_user(UserEnv& env, const controller::Request& request, controller::Context& ctx) {
  return UserReconciler(env, request, ctx).run();
}

}  // namespace capstan::kafka
