// The user operator (Strimzi's): a KafkaUser labelled with its cluster, in the Kafka's namespace,
// becomes that cluster's user:
//   - authentication tls: a Certificate named after the user from the cluster's clients CA
//     (Issuer <c>-clients-ca; needs the certificates controller), Secret of the same name
//     (tls.crt, tls.key, ca.crt); the user is CN=<name> on the listeners authenticating clients;
//   - authentication scram-sha-512: the password (from spec.authentication.password's Secret, or
//     generated once and kept) in Secret <name> (password, sasl.jaas.config), and the user's
//     SCRAM-SHA-512 credential in Kafka (AlterUserScramCredentials), set again when the password
//     changes or the credential went missing; the user is <name> on SCRAM listeners;
//   - authorization simple: the user's ACLs in Kafka (Admin API, on the replication listener)
//     are exactly the spec's rules (each operation one binding; the cluster resource is
//     kafka-cluster), bindings added behind the operator's back are removed at the next full
//     reconciliation; without authorization the user has none;
//   - quotas: the user's client quotas in Kafka (entity user=<principal name>) are exactly
//     spec.quotas' (producer_byte_rate, consumer_byte_rate, request_percentage,
//     controller_mutation_rate), set and removed with AlterClientQuotas;
//   - a deleted KafkaUser's ACLs, quotas (and SCRAM credential) are deleted first (finalizer kafka.capstan.dev/user-operator);
//     its Certificate and Secret go with it (owner reference).
// Status: Ready True/False (InvalidResource, KafkaError), username, secret, observedGeneration.
#pragma once

#include "controllers/kafka/cluster_admin.h"
#include "runtime/controller/reconcile.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

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
  // ns/cluster/user -> a hash of the password this manager last set as the user's credential
  // (Kafka keeps only a salted hash, so whether a password changed is known here alone).
  std::mutex scram_mu;
  std::map<std::string, std::string> scram_set;
};

// The principal of user `name` (User:CN=<name> with tls, else User:<name>), and the bindings
// of its spec.
std::string user_principal(std::string_view name, bool tls);

controller::Result reconcile_user(UserEnv& env, const controller::Request& request, controller::Context& ctx);

}  // namespace capstan::kafka
