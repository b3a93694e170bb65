// The user operator (Strimzi's): a KafkaUser labelled with its cluster, in the Kafka's namespace,
// becomes that cluster's user:
//   - authentication tls: a Certificate named after the user from the cluster's clients CA
//     (Issuer <c>-clients-ca; needs the certificates controller), Secret of the same name
//     (tls.crt, tls.key, ca.crt); the user is CN=<name> on the listeners authenticating clients;
//   - authorization simple: the user's ACLs in Kafka (Admin API, on the replication listener)
//     are exactly the spec's rules (each operation one binding; the cluster resource is
//     kafka-cluster), bindings added behind the operator's back are removed at the next full
//     reconciliation; without authorization the user has none;
//   - a deleted KafkaUser's ACLs are deleted first (finalizer kafka.capstan.dev/user-operator);
//     its Certificate and Secret go with it (owner reference).
// Status: Ready True/False (InvalidResource, KafkaError), username, secret, observedGeneration.
#pragma once

#include "controllers/kafka/cluster_admin.h"
#include "runtime/controller/reconcile.h"

#include <chrono>
#include <memory>

namespace capstan::client {
class Client;
}
namespace capstan::cache {
class Informer;
}

namespace capstan::kafka {

struct UserOptions {
  std::chrono::milliseconds full_reconciliation{120'000};
  bool certificates = false;  // the certificates controller runs (tls users need it)
};

struct UserEnv {
  client::Client& client;
  cache::Informer& users;
  cache::Informer& kafkas;
  std::shared_ptr<ClusterAdmins> admins;
  UserOptions options;
};

// The principal of user `name` (User:CN=<name> with tls, else User:<name>), and the bindings
// of its spec.
std::string user_principal(std::string_view name, bool tls);

controller::Result reconcile_user(UserEnv& env, const controller::Request& request, controller::Context& ctx);

}  // namespace capstan::kafka
