// Rolling real Kafka nodes: the cluster CA renewed by the certificates controller rolls the three
// nodes of a TLS + SCRAM cluster one at a time while a client keeps producing, with the roll of
// each broker held until the partitions it keeps in sync are fully replicated again. The pods
// follow their node processes (KafkaPodAgent: a pod is Ready when its node answers, its node
// stops when it is deleted and starts again on what its successor says), so the controller sees
// what a kubelet with Strimzi's readiness probe would report. Then a node that does not come
// back makes the cluster NotReady, and Ready again once it is back.
#include "controllers/kafka/cluster_admin.h"
#include "runtime/pki/certificate.h"
#include "runtime/pki/key.h"
#include "testing/kafka_client.h"
#include "testing/kafka_nodes_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <future>
#include <iostream>
#include <regex>
#include <set>
#include <thread>

namespace capstan::e2e {
namespace {
using namespace std::chrono_literals;

const std::vector<std::string>& kPods = kKafkaNodesPods;

class KafkaRollE2E : public KafkaNodesFixture {
 protected:
  KafkaRollE2E() : KafkaNodesFixture(rolling_setup("kafka-roll", "kafka,pods,certificates")) { address_map_ = replication_address_map(); }
  std::vector<std::string> manager_flags() override {
    return {"--controllers=kafka,certificates", "--kafka-address-map=" + address_map_, "--kafka-full-reconciliation-interval=3s",
            "--kafka-operation-timeout=20s"};
  }

  // Pod name -> its kafka.capstan.dev/revision.
  std::map<std::string, std::string> revisions() {
    std::map<std::string, std::string> out;
    for (const auto& pod : kPods) out[pod] = jsonpath("pod", pod, R"(.metadata.annotations.kafka\.capstan\.dev/revision)");
    return out;
  }

  std::string address_map_;
};

TEST_P(KafkaRollE2E, ACaRenewalRollsTheNodesOneAtATimeWithoutFailingAProducerAndANodeThatDoesNotComeBackIsReported) {
  const std::string cluster = kafka_cluster_with("      - {name: scram, port: 9093, type: internal, tls: true, authentication: {type: scram-sha-512}}\n");
  kubectl_->ok({"apply", "-f", "-"}, cluster + kLedgerTopic + R"(---
apiVersion: kafka.capstan.dev/v1
kind: KafkaUser
metadata: {name: writer, namespace: data, labels: {kafka.capstan.dev/cluster: events}}
spec: {authentication: {type: scram-sha-512}}
)");
  // The pods start (their certificates issued) but nothing makes them Ready before their nodes answer.
  const std::vector<KafkaNodeSpec> nodes = running_nodes();
  ASSERT_EQ(nodes.size(), 3u) << "the nodes' pods did not start";
  EXPECT_NE(condition("kafka", "events", "data", "Ready"), "True") << "Ready before any node answered";
  KafkaBrokers brokers(*dir_, nodes, std::move(network_));
  std::cout << "[ kafka ] three TLS + SCRAM nodes listening " << brokers.start_seconds() << " s after their start\n";

  kafka::ClusterAdmin look(brokers.bootstrap_servers(9092), 10s);  // the test's own look, on the plain listener
  KafkaPodAgent agent(*kubectl_, brokers, "data", "events", under_replicated(look));
  ASSERT_TRUE(eventually([&] { return condition("kafka", "events", "data", "Ready") == "True"; }, 90s))
      << jsonpath("kafka", "events", ".status") << agent.journal() << brokers.logs();
  for (const auto& [kind, name] : {std::pair{"kafkatopic", "ledger"}, std::pair{"kafkauser", "writer"}})
    ASSERT_TRUE(eventually([&] { return condition(kind, name, "data", "Ready") == "True"; }, 90s))
        << kind << " " << name << ": " << jsonpath(kind, name, ".status") << brokers.logs();

  const std::string ca_file = dir_->write("cluster-ca.crt", secret_data("events-cluster-ca-cert")["ca.crt"]);
  const std::string password = secret_data("writer")["password"];
  ASSERT_FALSE(password.empty());
  const std::map<std::string, std::string> writer{
      {"bootstrap.servers", brokers.bootstrap_servers(9093, /*by_name=*/true)},
      {"security.protocol", "SASL_SSL"},
      {"sasl.mechanism", "SCRAM-SHA-512"},
      {"sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"writer\" password=\"" + password + "\";"},
      {"ssl.truststore.type", "PEM"},
      {"ssl.truststore.location", ca_file},
      // Kafka's Java client knows the nodes by the hosts file's first name for 127.0.0.1, not by
      // the names their certificates carry: its name check is off (KafkaTlsE2E checks the names).
      {"ssl.endpoint.identification.algorithm", ""}};

  // A producer of acks=all runs through the whole roll (min.insync.replicas 2 of 3 replicas).
  const std::string stop_file = dir_->file("stop-producing");
  auto producer = std::async(std::launch::async, [&] { return brokers.java_client(writer, {"produce-until", "ledger", stop_file}, 600s); });
  std::this_thread::sleep_for(5s);

  // The cluster CA renewed (its key kept, as a renewal does): every node rolls onto the new CA.
  const std::string ca_serial = jsonpath("certificate", "events-cluster-ca", ".status.revision");
  const auto before = revisions();
  const auto renewed_at = std::chrono::steady_clock::now();
  const RunResult renew = run({capstan_bin(), "certs", "renew", "events-cluster-ca", "-n", "data", "--kubeconfig", server_->kubeconfig()});
  ASSERT_EQ(renew.code, 0) << renew.out << renew.err;
  const bool rolled = eventually([&] {
    const auto now = revisions();
    for (const auto& pod : kPods)
      if (now.at(pod).empty() || now.at(pod) == before.at(pod)) return false;
    for (const auto& pod : kPods)
      if (jsonpath("pod", pod, R"(.status.conditions[?(@.type=="Ready")].status)") != "True") return false;
    return condition("kafka", "events", "data", "Ready") == "True";
  }, 300s, 500ms);
  const double roll_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - renewed_at).count();
  std::filesystem::create_directories(stop_file);  // the producer stops
  const RunResult produced = producer.get();
  ASSERT_TRUE(rolled) << "the nodes did not all roll onto the renewed CA\n" << agent.journal() << brokers.logs();
  EXPECT_NE(jsonpath("certificate", "events-cluster-ca", ".status.revision"), ca_serial);
  std::cout << "[ kafka ] the CA renewal rolled three nodes in " << roll_seconds << " s; producer: " << produced.out;
  EXPECT_EQ(produced.code, 0) << "a produce request failed beyond the producer's retries:\n" << produced.out << produced.err << agent.journal();

  // One node at a time, each stopped only with every partition in sync, after the one before
  // it answered again.
  std::vector<std::string> stopped;
  std::string last_ready_after_stop;
  for (const auto& step : agent.steps()) {
    if (step.what == "stopped") {
      EXPECT_EQ(step.note, "") << step.pod << " was stopped while partitions were not in sync\n" << agent.journal();
      if (!stopped.empty()) {
        EXPECT_EQ(last_ready_after_stop, stopped.back()) << "a node stopped before the one before it was back\n" << agent.journal();
      }
      stopped.push_back(step.pod);
      last_ready_after_stop.clear();
    } else if (step.what == "ready") {
      last_ready_after_stop = step.pod;
    }
  }
  std::vector<std::string> sorted = stopped;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, kPods) << "each node rolls exactly once\n" << agent.journal();

  // Nothing acknowledged was lost: every message is read back.
  std::smatch acked;
  ASSERT_TRUE(std::regex_search(produced.out, acked, std::regex("acked=([0-9]+)"))) << produced.out;
  ASSERT_GT(std::stoi(acked[1]), 0);
  const RunResult consumed = brokers.java_client(writer, {"consume", "ledger", acked[1]});
  EXPECT_EQ(consumed.code, 0) << consumed.err;
  EXPECT_EQ(static_cast<long>(std::count(consumed.out.begin(), consumed.out.end(), '\n')), std::stol(acked[1]));

  // A node that does not come back after its pod went: the cluster is NotReady once the
  // operation timeout (20 s here) passed, naming the pod, and Ready again when it is back.
  agent.hold(kPods[1], true);
  kubectl_->ok({"delete", "pod", kPods[1], "-n", "data", "--wait=false"});
  EXPECT_TRUE(eventually([&] { return condition("kafka", "events", "data", "NotReady") == "True"; }, 60s))
      << jsonpath("kafka", "events", ".status");
  const std::string message = jsonpath("kafka", "events", R"(.status.conditions[?(@.type=="NotReady")].message)");
  EXPECT_EQ(jsonpath("kafka", "events", R"(.status.conditions[?(@.type=="NotReady")].reason)"), "TimeoutException");
  EXPECT_NE(message.find("Pods events-dual-1 in namespace data to be ready"), std::string::npos) << message;
  agent.hold(kPods[1], false);
  EXPECT_TRUE(eventually([&] { return condition("kafka", "events", "data", "Ready") == "True"; }, 90s))
      << jsonpath("kafka", "events", ".status") << agent.journal();
}

// Strimzi's phased CA key replacement (ca_replacement.h) under a producer: the annotation on the
// cluster CA's Secret gets the CA a new key; the nodes roll to trust the new and the old CA
// certificates, roll onto certificates of the new key, then roll to trust the new one alone, one
// node at a time each time, and no send fails. The cluster stays Ready, with a Warning while it runs.
TEST_P(KafkaRollE2E, ReplacingTheClusterCaKeyRollsTheNodesThroughThreePhasesWithoutFailingAProducer) {
  // A TLS listener whose clients trust the cluster CA as its public Secret says.
  kubectl_->ok({"apply", "-f", "-"}, kafka_cluster_with("      - {name: tls, port: 9093, type: internal, tls: true}\n") + kLedgerTopic);
  const std::vector<KafkaNodeSpec> nodes = running_nodes();
  ASSERT_EQ(nodes.size(), 3u) << "the nodes' pods did not start";
  KafkaBrokers brokers(*dir_, nodes, std::move(network_));
  kafka::ClusterAdmin look(brokers.bootstrap_servers(9092), 10s);
  KafkaPodAgent agent(*kubectl_, brokers, "data", "events", under_replicated(look));
  ASSERT_TRUE(eventually([&] { return condition("kafka", "events", "data", "Ready") == "True"; }, 90s))
      << jsonpath("kafka", "events", ".status") << agent.journal() << brokers.logs();
  ASSERT_TRUE(eventually([&] { return condition("kafkatopic", "ledger", "data", "Ready") == "True"; }, 90s))
      << jsonpath("kafkatopic", "ledger", ".status") << brokers.logs();

  const pki::Certificate old_ca = pki::Certificate::parse_pem(secret_data("events-cluster-ca-cert")["ca.crt"]);
  auto certificates_in = [](const std::string& pem) { return static_cast<int>(pki::Certificate::parse_chain(pem).size()); };
  ASSERT_EQ(certificates_in(secret_data("events-cluster-ca-cert")["ca.crt"]), 1);
  const std::size_t steps_before = agent.steps().size();

  const auto asked_at = std::chrono::steady_clock::now();
  kubectl_->ok({"annotate", "secret", "events-cluster-ca", "-n", "data", "kafka.capstan.dev/force-replace=true"});
  // Phase 1: the new CA certificate is published beside the old one; a client takes both.
  std::string both;
  ASSERT_TRUE(eventually([&] {
    both = secret_data("events-cluster-ca-cert")["ca.crt"];
    return !both.empty() && certificates_in(both) == 2;
  }, 60s)) << jsonpath("secret", "events-cluster-ca-cert", ".metadata.annotations") << jsonpath("kafka", "events", ".status");
  EXPECT_EQ(pki::Certificate::parse_chain(both)[1], old_ca) << "the old CA certificate is kept, after the new one";
  const std::string ca_file = dir_->write("cluster-ca-both.crt", both);
  const std::map<std::string, std::string> writer{
      {"bootstrap.servers", brokers.bootstrap_servers(9093, /*by_name=*/true)},
      {"security.protocol", "SSL"},
      {"ssl.truststore.type", "PEM"},
      {"ssl.truststore.location", ca_file},
      {"ssl.endpoint.identification.algorithm", ""}};
  const std::string stop_file = dir_->file("stop-producing");
  auto producer = std::async(std::launch::async, [&] { return brokers.java_client(writer, {"produce-until", "ledger", stop_file}, 900s); });

  // Phases 2 and 3, watched: the cluster never NotReady, a Warning saying the replacement runs.
  // The manager is killed once phase 2 began, and the one started after it carries on from the
  // phase its public Secret says.
  std::set<std::string> phases_seen, warnings_seen;
  bool not_ready_seen = false, restarted = false;
  const bool replaced = eventually([&] {
    if (condition("kafka", "events", "data", "NotReady") == "True") not_ready_seen = true;
    const std::string phase = jsonpath("secret", "events-cluster-ca-cert", R"(.metadata.annotations.kafka\.capstan\.dev/ca-key-replacement)");
    const std::string warning = jsonpath("kafka", "events", R"(.status.conditions[?(@.reason=="CaKeyReplacement")].message)");
    if (!phase.empty()) phases_seen.insert(phase);
    if (phase == "ReissueCertificates" && !restarted) {
      restarted = true;
      manager_->kill();
      manager_->start();
    }
    if (!warning.empty()) warnings_seen.insert(warning.substr(warning.find("phase")));
    if (!phase.empty() || !warning.empty()) return false;
    const std::string trusted = secret_data("events-cluster-ca-cert")["ca.crt"];
    if (trusted.empty() || certificates_in(trusted) != 1 || pki::Certificate::parse_pem(trusted).public_key_der() == old_ca.public_key_der())
      return false;
    for (const auto& pod : kPods)
      if (jsonpath("pod", pod, R"(.status.conditions[?(@.type=="Ready")].status)") != "True") return false;
    return condition("kafka", "events", "data", "Ready") == "True";
  }, 600s, 500ms);
  const double replace_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - asked_at).count();
  std::filesystem::create_directories(stop_file);
  const RunResult produced = producer.get();
  ASSERT_TRUE(replaced) << "the CA key replacement did not finish\n"
                        << jsonpath("secret", "events-cluster-ca-cert", ".metadata.annotations") << "\n"
                        << jsonpath("kafka", "events", ".status") << agent.journal() << brokers.logs();
  std::cout << "[ kafka ] the cluster CA key replacement took " << replace_seconds << " s; producer: " << produced.out;
  EXPECT_EQ(produced.code, 0) << "a produce request failed beyond the producer's retries:\n" << produced.out << produced.err << agent.journal();
  EXPECT_FALSE(not_ready_seen) << jsonpath("kafka", "events", ".status");
  EXPECT_TRUE(restarted);
  for (const auto* phase : {"TrustBoth", "ReissueCertificates", "RemoveOld"}) EXPECT_TRUE(phases_seen.contains(phase)) << phase;
  EXPECT_FALSE(warnings_seen.empty()) << "no Warning said the replacement runs";

  // The new key everywhere: the public Secret holds its certificate alone, the CA Secret has no
  // trace of the old key (nor the annotation), every node and the operator run certificates it signed.
  const pki::Certificate new_ca = pki::Certificate::parse_pem(secret_data("events-cluster-ca-cert")["ca.crt"]);
  auto ca_secret = secret_data("events-cluster-ca");
  EXPECT_EQ(pki::Certificate::parse_pem(ca_secret["tls.crt"]), new_ca);
  EXPECT_EQ(pki::PrivateKey::from_pem(ca_secret["tls.key"]).public_key_der(), new_ca.public_key_der());
  EXPECT_NE(new_ca.public_key_der(), old_ca.public_key_der());
  EXPECT_NE(new_ca.subject_dn().find("CN=cluster-ca v1"), std::string::npos) << new_ca.subject_dn();
  EXPECT_EQ(jsonpath("secret", "events-cluster-ca", R"(.metadata.annotations.kafka\.capstan\.dev/force-replace)"), "");
  EXPECT_EQ(secret_data("events-cluster-ca-cert").count("ca-previous.crt"), 0u);
  for (const std::string name : {"events-dual-0", "events-dual-1", "events-dual-2", "events-cluster-operator-certs"}) {
    const pki::Certificate leaf = pki::Certificate::parse_pem(secret_data(name)["tls.crt"]);
    EXPECT_TRUE(leaf.signed_by(new_ca)) << name << " is signed by " << leaf.issuer_dn();
    EXPECT_FALSE(leaf.signed_by(old_ca)) << name;
  }

  // Three rolls of each node, one node at a time, each stopped only with every partition in sync.
  std::map<std::string, int> stops;
  std::string last_ready_after_stop, stopped_last;
  const auto steps = agent.steps();
  for (std::size_t i = steps_before; i < steps.size(); ++i) {
    const auto& step = steps[i];
    if (step.what == "stopped") {
      EXPECT_EQ(step.note, "") << step.pod << " was stopped while partitions were not in sync\n" << agent.journal();
      if (!stopped_last.empty()) {
        EXPECT_EQ(last_ready_after_stop, stopped_last) << "a node stopped before the one before it was back\n" << agent.journal();
      }
      ++stops[step.pod];
      stopped_last = step.pod;
      last_ready_after_stop.clear();
    } else if (step.what == "ready") {
      last_ready_after_stop = step.pod;
    }
  }
  for (const auto& pod : kPods) EXPECT_EQ(stops[pod], 3) << pod << "\n" << agent.journal();

  // Nothing acknowledged was lost.
  std::smatch acked;
  ASSERT_TRUE(std::regex_search(produced.out, acked, std::regex("acked=([0-9]+)"))) << produced.out;
  ASSERT_GT(std::stoi(acked[1]), 0);
  const RunResult consumed = brokers.java_client(writer, {"consume", "ledger", acked[1]});
  EXPECT_EQ(consumed.code, 0) << consumed.err;
  EXPECT_EQ(static_cast<long>(std::count(consumed.out.begin(), consumed.out.end(), '\n')), std::stol(acked[1]));
}

// The clients CA's key replaced: the brokers roll to trust both clients CAs, the client
// certificates the clients CA signs (a Certificate a user made, here) are issued again under the
// new key, which the brokers accept, then the old clients CA goes from the brokers' truststores
// in a second roll (no node certificate changes, so two rolls, not three).
TEST_P(KafkaRollE2E, ReplacingTheClientsCaKeyReissuesClientCertificatesWhileTheBrokersTrustBoth) {
  kubectl_->ok({"apply", "-f", "-"}, kafka_cluster_with("      - {name: mtls, port: 9093, type: internal, tls: true, authentication: {type: tls}}\n") +
                                         kLedgerTopic + R"(---
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: alice, namespace: data}
spec: {secretName: alice, commonName: alice, usages: [client auth], issuerRef: {name: events-clients-ca}}
)");
  const std::vector<KafkaNodeSpec> nodes = running_nodes();
  ASSERT_EQ(nodes.size(), 3u) << "the nodes' pods did not start";
  KafkaBrokers brokers(*dir_, nodes, std::move(network_));
  kafka::ClusterAdmin look(brokers.bootstrap_servers(9092), 10s);
  KafkaPodAgent agent(*kubectl_, brokers, "data", "events", under_replicated(look));
  ASSERT_TRUE(eventually([&] { return condition("kafka", "events", "data", "Ready") == "True"; }, 90s))
      << jsonpath("kafka", "events", ".status") << agent.journal() << brokers.logs();
  ASSERT_TRUE(eventually([&] { return condition("certificate", "alice", "data", "Ready") == "True"; }, 30s));

  const std::string cluster_ca = dir_->write("cluster-ca.crt", secret_data("events-cluster-ca-cert")["ca.crt"]);
  const std::string bootstrap = brokers.bootstrap_servers(9093, /*by_name=*/true);
  auto client_with = [&](const std::string& tag, const std::map<std::string, std::string>& files) {
    return KafkaClient(bootstrap, {{"security.protocol", "ssl"},
                                   {"ssl.ca.location", cluster_ca},
                                   {"ssl.certificate.location", dir_->write("alice-" + tag + ".crt", files.at("tls.crt"))},
                                   {"ssl.key.location", dir_->write("alice-" + tag + ".key", files.at("tls.key"))}});
  };
  const auto alice_old = secret_data("alice");
  const pki::Certificate old_ca = pki::Certificate::parse_pem(secret_data("events-clients-ca-cert")["ca.crt"]);
  ASSERT_TRUE(pki::Certificate::parse_pem(alice_old.at("tls.crt")).signed_by(old_ca));
  ASSERT_NO_THROW(client_with("old", alice_old).produce("ledger", {"before"})) << brokers.logs();
  const std::size_t steps_before = agent.steps().size();

  const auto asked_at = std::chrono::steady_clock::now();
  kubectl_->ok({"annotate", "secret", "events-clients-ca", "-n", "data", "kafka.capstan.dev/force-replace=true"});
  // Phase 2: alice's certificate issued again under the new key, once the brokers trust both.
  pki::Certificate new_ca;
  std::map<std::string, std::string> alice_new;
  ASSERT_TRUE(eventually([&] {
    const std::string trusted = secret_data("events-clients-ca-cert")["ca.crt"];
    if (trusted.empty()) return false;
    const pki::Certificate first = pki::Certificate::parse_pem(trusted);
    if (first.public_key_der() == old_ca.public_key_der()) return false;
    alice_new = secret_data("alice");
    if (alice_new["tls.crt"].empty() || !pki::Certificate::parse_pem(alice_new["tls.crt"]).signed_by(first)) return false;
    new_ca = first;
    return true;
  }, 300s, 500ms)) << jsonpath("secret", "events-clients-ca-cert", ".metadata.annotations") << jsonpath("kafka", "events", ".status")
                   << agent.journal();
  const std::string phase = jsonpath("secret", "events-clients-ca-cert", R"(.metadata.annotations.kafka\.capstan\.dev/ca-key-replacement)");
  EXPECT_TRUE(phase == "ReissueCertificates" || phase == "RemoveOld" || phase.empty()) << phase;
  EXPECT_NO_THROW(client_with("new", alice_new).produce("ledger", {"re-issued"})) << "the brokers refuse the new clients CA\n" << brokers.logs();

  bool not_ready_seen = false;
  const bool replaced = eventually([&] {
    if (condition("kafka", "events", "data", "NotReady") == "True") not_ready_seen = true;
    if (!jsonpath("secret", "events-clients-ca-cert", R"(.metadata.annotations.kafka\.capstan\.dev/ca-key-replacement)").empty()) return false;
    if (!jsonpath("kafka", "events", R"(.status.conditions[?(@.reason=="CaKeyReplacement")].message)").empty()) return false;
    const std::string trusted = secret_data("events-clients-ca-cert")["ca.crt"];
    if (pki::Certificate::parse_chain(trusted).size() != 1) return false;
    for (const auto& pod : kPods)
      if (jsonpath("pod", pod, R"(.status.conditions[?(@.type=="Ready")].status)") != "True") return false;
    return condition("kafka", "events", "data", "Ready") == "True";
  }, 300s, 500ms);
  const double replace_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - asked_at).count();
  ASSERT_TRUE(replaced) << jsonpath("secret", "events-clients-ca-cert", ".metadata.annotations") << jsonpath("kafka", "events", ".status")
                        << agent.journal();
  std::cout << "[ kafka ] the clients CA key replacement took " << replace_seconds << " s\n";
  EXPECT_FALSE(not_ready_seen);
  EXPECT_EQ(pki::Certificate::parse_pem(secret_data("events-clients-ca-cert")["ca.crt"]), new_ca);
  EXPECT_EQ(pki::PrivateKey::from_pem(secret_data("events-clients-ca")["tls.key"]).public_key_der(), new_ca.public_key_der());

  // The new certificate is accepted; the old one, of a CA no broker trusts any more, is not.
  EXPECT_NO_THROW(client_with("new", alice_new).produce("ledger", {"after"})) << brokers.logs();
  bool refused = false;
  try {
    client_with("old", alice_old).produce("ledger", {"stale"}, 20s);
  } catch (const std::exception&) {
    refused = true;
  }
  EXPECT_TRUE(refused) << "a client certificate of the replaced clients CA is still accepted";

  std::map<std::string, int> stops;
  const auto steps = agent.steps();
  for (std::size_t i = steps_before; i < steps.size(); ++i)
    if (steps[i].what == "stopped") ++stops[steps[i].pod];
  for (const auto& pod : kPods) EXPECT_EQ(stops[pod], 2) << pod << "\n" << agent.journal();
}

CAPSTAN_E2E_BACKENDS(KafkaRollE2E);

}  // namespace
}  // namespace capstan::e2e
