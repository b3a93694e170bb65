#include "testing/kafka_client.h"

#include <librdkafka/rdkafka.h>
#include <netdb.h>

#include <memory>
#include <stdexcept>

namespace capstan::e2e {
namespace {

using Clock = std::chrono::steady_clock;

struct HandleDeleter {
  void operator()(rd_kafka_t* h) const { rd_kafka_destroy(h); }
};
using Handle = std::unique_ptr<rd_kafka_t, HandleDeleter>;

int ms(std::chrono::milliseconds d) { return static_cast<int>(d.count()); }

// Every host name is the pod network's: it resolves to 127.0.0.1 (testing/kafka_broker.h).
int resolve_to_loopback(const char* node, const char* service, const struct addrinfo* hints, struct addrinfo** res, void*) {
  if (!node && !service && !hints) {
    freeaddrinfo(*res);
    return 0;
  }
  return getaddrinfo("127.0.0.1", service, hints, res);
}

// A producer or consumer handle on `bootstrap` with `config` and `extra` set, and `customize`
// applied to its configuration (callbacks).
Handle make_handle(rd_kafka_type_t type, const std::string& bootstrap, const std::map<std::string, std::string>& config,
                   const std::map<std::string, std::string>& extra = {}, void (*customize)(rd_kafka_conf_t*, void*) = nullptr,
                   void* opaque = nullptr) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char err[512];
  auto set = [&](const std::string& k, const std::string& v) {
    if (rd_kafka_conf_set(conf, k.c_str(), v.c_str(), err, sizeof err) != RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      throw std::invalid_argument("librdkafka " + k + ": " + err);
    }
  };
  set("bootstrap.servers", bootstrap);
  set("log_level", "4");  // warnings and worse reach stderr (the test's log)
  for (const auto& [k, v] : config) set(k, v);
  for (const auto& [k, v] : extra) set(k, v);
  rd_kafka_conf_set_resolve_cb(conf, resolve_to_loopback);
  if (customize) customize(conf, opaque);
  rd_kafka_t* h = rd_kafka_new(type, conf, err, sizeof err);  // owns conf on success
  if (!h) {
    rd_kafka_conf_destroy(conf);
    throw std::runtime_error(std::string("rd_kafka_new: ") + err);
  }
  return Handle(h);
}

std::string error_text(rd_kafka_resp_err_t e) { return std::string(rd_kafka_err2name(e)) + ": " + rd_kafka_err2str(e); }

}  // namespace

KafkaClient::KafkaClient(std::string bootstrap, std::map<std::string, std::string> config)
    : bootstrap_(std::move(bootstrap)), config_(std::move(config)) {}

std::string KafkaClient::cluster_id(std::chrono::milliseconds timeout) const {
  auto h = make_handle(RD_KAFKA_PRODUCER, bootstrap_, config_);
  char* id = rd_kafka_clusterid(h.get(), ms(timeout));
  if (!id) throw std::runtime_error("no cluster id from " + bootstrap_ + " within " + std::to_string(timeout.count()) + " ms");
  std::string out(id);
  rd_kafka_mem_free(h.get(), id);
  return out;
}

int KafkaClient::broker_count(std::chrono::milliseconds timeout) const {
  auto h = make_handle(RD_KAFKA_PRODUCER, bootstrap_, config_);
  const rd_kafka_metadata_t* md = nullptr;
  if (auto e = rd_kafka_metadata(h.get(), 0, nullptr, &md, ms(timeout)); e != RD_KAFKA_RESP_ERR_NO_ERROR)
    throw std::runtime_error("metadata from " + bootstrap_ + ": " + error_text(e));
  int n = md->broker_cnt;
  rd_kafka_metadata_destroy(md);
  return n;
}

void KafkaClient::create_topic(const std::string& topic, int partitions, int replication_factor,
                               const std::map<std::string, std::string>& configs, std::chrono::milliseconds timeout) const {
  auto h = make_handle(RD_KAFKA_PRODUCER, bootstrap_, config_);
  char err[512];
  rd_kafka_NewTopic_t* t = rd_kafka_NewTopic_new(topic.c_str(), partitions, replication_factor, err, sizeof err);
  if (!t) throw std::invalid_argument("topic " + topic + ": " + err);
  for (const auto& [k, v] : configs) rd_kafka_NewTopic_set_config(t, k.c_str(), v.c_str());
  rd_kafka_queue_t* q = rd_kafka_queue_new(h.get());
  rd_kafka_AdminOptions_t* opts = rd_kafka_AdminOptions_new(h.get(), RD_KAFKA_ADMIN_OP_CREATETOPICS);
  rd_kafka_AdminOptions_set_request_timeout(opts, ms(timeout), err, sizeof err);
  rd_kafka_CreateTopics(h.get(), &t, 1, opts, q);
  rd_kafka_event_t* ev = rd_kafka_queue_poll(q, ms(timeout) + 5000);
  std::string failure;
  if (!ev) {
    failure = "no answer";
  } else if (rd_kafka_event_error(ev)) {
    failure = rd_kafka_event_error_string(ev);
  } else {
    size_t n = 0;
    const rd_kafka_topic_result_t** results = rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev), &n);
    for (size_t i = 0; i < n; ++i) {
      auto e = rd_kafka_topic_result_error(results[i]);
      if (e != RD_KAFKA_RESP_ERR_NO_ERROR && e != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS)
        failure = error_text(e) + (rd_kafka_topic_result_error_string(results[i]) ? std::string(" (") + rd_kafka_topic_result_error_string(results[i]) + ")" : "");
    }
  }
  if (ev) rd_kafka_event_destroy(ev);
  rd_kafka_AdminOptions_destroy(opts);
  rd_kafka_NewTopic_destroy(t);
  rd_kafka_queue_destroy(q);
  if (!failure.empty()) throw std::runtime_error("CreateTopics " + topic + " on " + bootstrap_ + ": " + failure);
}

namespace {

// Delivery reports of one produce(): how many failed, and the first failure.
struct Deliveries {
  std::size_t failed = 0;
  std::string first_error;
};

void on_delivery(rd_kafka_t*, const rd_kafka_message_t* m, void* opaque) {
  if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR) return;
  auto* d = static_cast<Deliveries*>(opaque);
  if (d->failed++ == 0) d->first_error = error_text(m->err);
}

}  // namespace

void KafkaClient::produce(const std::string& topic, const std::vector<std::string>& messages, std::chrono::milliseconds timeout) const {
  Deliveries deliveries;
  auto h = make_handle(RD_KAFKA_PRODUCER, bootstrap_, config_,
                       {{"acks", "all"}, {"enable.idempotence", "true"}, {"message.timeout.ms", std::to_string(timeout.count())}},
                       [](rd_kafka_conf_t* conf, void* opaque) {
                         rd_kafka_conf_set_opaque(conf, opaque);
                         rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
                       },
                       &deliveries);
  for (const auto& m : messages) {
    auto e = rd_kafka_producev(h.get(), RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_VALUE(const_cast<char*>(m.data()), m.size()),
                               RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
    if (e != RD_KAFKA_RESP_ERR_NO_ERROR) throw std::runtime_error("produce to " + topic + ": " + error_text(e));
  }
  if (auto e = rd_kafka_flush(h.get(), ms(timeout)); e != RD_KAFKA_RESP_ERR_NO_ERROR)
    throw std::runtime_error("produce to " + topic + " on " + bootstrap_ + ": " + std::to_string(rd_kafka_outq_len(h.get())) +
                             " messages undelivered: " + error_text(e));
  if (deliveries.failed > 0)
    throw std::runtime_error("produce to " + topic + ": " + std::to_string(deliveries.failed) + " of " + std::to_string(messages.size()) +
                             " messages refused, the first with " + deliveries.first_error);
}

std::vector<std::string> KafkaClient::consume(const std::string& topic, int partitions, std::size_t count,
                                              std::chrono::milliseconds timeout) const {
  // librdkafka wants a group id even for assign(); nothing is committed to it.
  auto h = make_handle(RD_KAFKA_CONSUMER, bootstrap_, config_,
                       {{"group.id", "capstan-e2e-" + topic}, {"enable.partition.eof", "false"}, {"enable.auto.commit", "false"}});
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(partitions);
  for (int p = 0; p < partitions; ++p) rd_kafka_topic_partition_list_add(list, topic.c_str(), p)->offset = RD_KAFKA_OFFSET_BEGINNING;
  auto e = rd_kafka_assign(h.get(), list);
  rd_kafka_topic_partition_list_destroy(list);
  if (e != RD_KAFKA_RESP_ERR_NO_ERROR) throw std::runtime_error("assign " + topic + ": " + error_text(e));
  std::vector<std::string> out;
  const auto deadline = Clock::now() + timeout;
  while (out.size() < count && Clock::now() < deadline) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(h.get(), 200);
    if (!m) continue;
    if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR) out.emplace_back(static_cast<const char*>(m->payload), m->len);
    rd_kafka_message_destroy(m);
  }
  rd_kafka_consumer_close(h.get());
  return out;
}

}  // namespace capstan::e2e
