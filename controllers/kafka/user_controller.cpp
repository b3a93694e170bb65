#include "controllers/kafka/user_controller.h"

#include "apis/certs/v1/group.h"
#include "apis/kafka/v1/group.h"
#include "apis/kafka/v1/types.h"
#include "apis/kafka/v1/validation.h"
#include "controllers/kafka/objects.h"
#include "controllers/kafka/ready_status.h"
#include "controllers/kafka/security.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/controller/finalizer.h"
#include "runtime/controller/status.h"
#include "runtime/meta/object.h"

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

// The user's client certificate from the clients CA; the principal User:CN=<name>.
json::Value user_certificate(const json::Value& user, const std::string& cluster) {
  const std::string name(meta::name_of(user));
  json::Object labels{{v1::kClusterLabel, cluster}, {v1::kKindLabel, v1::kKafkaUserKind}, {"app.kubernetes.io/managed-by", "capstan-kafka"}};
  return leaf_certificate(user, name, labels, name, clients_ca_name(cluster), json::Array{"client auth", "digital signature"});
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
    status.username = principal_.substr(std::string_view("User:").size());
    status.secret.clear();
    if (tls_) {
      env_.client.apply(apis::certs::v1::kCertificateType.gvr, req_.ns, user_certificate(before_, cluster_), kFieldManager, true);
      status.secret = req_.name;
    }
    auto kafka_ready = meta::find_condition(kafka->value(), v1::condition::kReady);
    if (!kafka_ready || kafka_ready->status != "True")
      return not_ready(v1::reason::kKafkaError, "Kafka cluster " + req_.ns + "/" + cluster_ + " is not ready yet", kRetry);
    try {
      sync_acls();
    } catch (const AdminError& e) {
      ctx_.log.warn("user's ACLs not reconciled", {{"principal", principal_}, {"error", e.what()}});
      return not_ready(v1::reason::kKafkaError, e.what(), kRetry);
    }
    status.observed_generation = meta::generation_of(before_);
    set_condition(status.conditions, v1::condition::kReady, "True", "", "", status.observed_generation);
    controller::write_status(env_.client, v1::kKafkaUserType.gvr, before_, status);
    return controller::Result::after(env_.options.full_reconciliation);
  }

 private:
  std::shared_ptr<ClusterAdmin> admin() { return env_.admins->for_cluster(cluster_, req_.ns); }

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

  // A deleted KafkaUser: its ACLs go first (unless its cluster is gone).
  controller::Result finalize() {
    if (!meta::has_finalizer(before_, v1::kUserFinalizer)) return controller::Result::done();
    auto kafka = env_.kafkas.get(req_.ns, cluster_);
    if (kafka && !kafka->deleting()) {
      try {
        auto a = admin();
        const auto have = a->acls(principal_);
        a->delete_acls({have.begin(), have.end()});
        ctx_.log.info("deleted the user's ACLs", {{"principal", principal_}, {"count", static_cast<std::int64_t>(have.size())}});
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
  std::string cluster_, principal_;
  bool tls_ = false;
};

}  // namespace

std::string user_principal(std::string_view name, bool tls) { return "User:" + std::string(tls ? "CN=" : "") + std::string(name); }

controller::Result reconcile_user(UserEnv& env, const controller::Request& request, controller::Context& ctx) {
  return UserReconciler(env, request, ctx).run();
}

}  // namespace capstan::kafka
