#include "testing/kafka_broker.h"

#include "testing/cluster.h"
#include "testing/eventually.h"
#include "testing/ports.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace capstan::e2e {
namespace {

using Clock = std::chrono::steady_clock;

// The properties whose values are lists of addresses.
bool is_address_list(const std::string& key) {
  return key == "listeners" || key == "advertised.listeners" || key == "controller.quorum.voters" ||
         key == "controller.quorum.bootstrap.servers";
}
bool is_data_dir(const std::string& key) { return key == "log.dirs" || key == "log.dir" || key == "metadata.log.dir"; }

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(item);
  return out;
}

std::string java_binary() {
  const char* home = std::getenv("JAVA_HOME");
  return home && *home ? std::string(home) + "/bin/java" : "java";
}

std::string kafka_tools_dir() {
  const char* t = std::getenv("CAPSTAN_TOOLS_DIR");
  return (t && *t ? std::string(t) : source_dir() + "/.tools") + "/kafka";
}

// `logging`: the log4j2 configuration of tools/kafka (the broker's; the client's logs to stderr).
// `libs`: the jars of the Kafka release to run (kafka_libs_dir).
std::vector<std::string> java_command(const std::string& main_class, const std::string& libs, const std::string& more_classpath = "",
                                      const std::string& logging = "log4j2.yaml") {
  // A small heap, the serial collector and C1 only: three nodes start together on two cores.
  return {java_binary(), "-Xms64m", "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true",
          "-Dlog4j2.configurationFile=" + source_dir() + "/tools/kafka/" + logging, "-cp", libs + "/*" + more_classpath,
          main_class};
}

}  // namespace

std::string kafka_libs_dir(const std::string& version) {
  const std::string pinned = kafka_tools_dir() + "/libs";
  const std::string other = kafka_tools_dir() + "/releases/" + version + "/libs";
  if (version.empty() ? std::filesystem::exists(pinned) : std::filesystem::exists(pinned + "/kafka-server-" + version + ".jar")) return pinned;
  if (!version.empty() && std::filesystem::exists(other + "/kafka-server-" + version + ".jar")) return other;
  throw std::runtime_error("no Kafka " + (version.empty() ? std::string("broker") : version) + " in " + pinned +
                           (version.empty() ? "" : " or " + other) +
                           ": run scripts/kafka.sh (make deps does; it fetches the releases tools/kafka/pom.xml pins)");
}

std::string kafka_agent_jar() { return kafka_tools_dir() + "/agent/jmx_prometheus_javaagent.jar"; }

std::string KafkaNetwork::address(const std::string& host, int port) {
  auto alias = aliases_.find(host);
  auto [it, added] = ports_.try_emplace({alias == aliases_.end() ? host : alias->second, port}, 0);
  if (added) it->second = free_port();
  return "127.0.0.1:" + std::to_string(it->second);
}

std::string KafkaNetwork::translate(const std::string& value, const std::string& own_host, const std::set<std::string>& names_kept) {
  std::string out;
  for (const auto& item : split(value, ',')) {
    // [NAME://|ID@]host:port
    std::size_t host_start = 0;
    std::string name;
    if (auto scheme = item.find("://"); scheme != std::string::npos) {
      host_start = scheme + 3;
      name = item.substr(0, scheme);
    } else if (auto at = item.find('@'); at != std::string::npos) {
      host_start = at + 1;
    }
    const auto colon = item.rfind(':');
    if (colon == std::string::npos || colon < host_start) throw std::invalid_argument("not an address list: " + value);
    std::string host = item.substr(host_start, colon - host_start);
    if (host == "0.0.0.0" || host.empty()) host = own_host;
    std::string translated = address(host, std::stoi(item.substr(colon + 1)));
    if (names_kept.contains(name)) translated = host + translated.substr(translated.rfind(':'));
    out += (out.empty() ? "" : ",") + item.substr(0, host_start) + translated;
  }
  return out;
}

KafkaBrokers::KafkaBrokers(const TempDir& dir, std::vector<KafkaNodeSpec> nodes, KafkaNetwork network)
    : dir_(dir), network_(std::move(network)) {
  for (const auto& spec : nodes) kafka_libs_dir(spec.kafka_version);  // throws for a release not fetched
  for (auto& spec : nodes) nodes_.push_back(Node{std::move(spec), {}, {}, false, {}, nullptr});
  for (auto& n : nodes_) prepare(n);
  for (const auto& n : nodes_) format(n);
  const auto started = Clock::now();
  for (auto& n : nodes_) start(n);
  // A listen port picked free may be taken by another process's outgoing connection before the
  // node binds it: such a node is started again on the same ports, a few times, after a pause.
  int restarts = 0;
  const bool up = eventually(
      [&] {
        for (auto& n : nodes_) {
          if (!n.proc->running() && restarts < 5 && (n.proc->out() + n.proc->err()).find("Address already in use") != std::string::npos) {
            ++restarts;
            n.proc.reset();  // before the new one: its destructor removes the log files they share
            std::this_thread::sleep_for(std::chrono::seconds(1));
            start(n);
            return false;
          }
          if (!n.proc->running()) return true;  // reported below
          for (auto port : n.listen_ports)
            if (!accepts_connections(port)) return false;
        }
        return true;
      },
      std::chrono::seconds(120), std::chrono::milliseconds(200));
  for (auto& n : nodes_)
    if (!n.proc->running()) throw std::runtime_error("Kafka node " + n.spec.pod + " exited:\n" + logs());
  if (!up) throw std::runtime_error("the Kafka nodes did not all listen within 120 s:\n" + logs());
  start_seconds_ = std::chrono::duration<double>(Clock::now() - started).count();
}

KafkaBrokers::~KafkaBrokers() {
  for (auto& n : nodes_)
    if (n.proc) n.proc->signal(SIGTERM);  // all at once: a quorum shuts down faster together
  for (auto& n : nodes_)
    if (n.proc) n.proc->stop(std::chrono::seconds(20));
}

void KafkaBrokers::prepare(Node& n) {
  n.data_dir = dir_.file("kafka-" + n.spec.pod + "-data");
  std::filesystem::create_directories(n.data_dir);
  // Each data volume: its folder under the node's data folder (named by the mount's last part).
  std::map<std::string, std::string> data_mounts;
  for (const auto& path : n.spec.data_mount_paths) {
    const std::string folder = n.data_dir + "/" + path.substr(path.rfind('/') + 1);
    std::filesystem::create_directories(folder);
    data_mounts[path] = folder;
  }
  // The Secret volumes: mount path -> its folder here.
  std::map<std::string, std::string> mounts;
  for (const auto& [path, files] : n.spec.mounts) {
    const std::string folder = dir_.file("kafka-" + n.spec.pod + "-mount-" + std::to_string(mounts.size()));
    std::filesystem::create_directories(folder);
    for (const auto& [file, content] : files) write_file(folder + "/" + file, content);
    mounts[path] = folder;
  }
  // The TLS listeners: their advertised addresses keep the node's name.
  std::set<std::string> tls;
  for (const auto& line : split(n.spec.server_config, '\n'))
    if (line.rfind("listener.security.protocol.map=", 0) == 0)
      for (const auto& entry : split(line.substr(line.find('=') + 1), ','))
        if (entry.size() > 4 && entry.substr(entry.size() - 4) == ":SSL") tls.insert(entry.substr(0, entry.size() - 4));
  std::string out;
  for (const auto& line : split(n.spec.server_config, '\n')) {
    const auto eq = line.find('=');
    if (line.empty() || line[0] == '#' || eq == std::string::npos) {
      out += line + "\n";
      continue;
    }
    const std::string key = line.substr(0, eq);
    std::string value = line.substr(eq + 1);
    if (is_address_list(key)) {
      // Quorum voters (ID@host:port) name no listener: they are the control plane's.
      std::set<std::string> kept;
      if (key == "advertised.listeners") kept = tls;
      else if (key == "controller.quorum.voters" && tls.contains("CONTROLPLANE-9090")) kept = {""};
      value = network_.translate(value, n.spec.host, kept);
      if (key == "listeners")
        for (const auto& l : split(value, ',')) n.listen_ports.push_back(static_cast<std::uint16_t>(std::stoi(l.substr(l.rfind(':') + 1))));
    } else if (is_data_dir(key)) {
      std::string dirs;
      for (const auto& d : split(value, ',')) {
        auto on = std::find_if(data_mounts.begin(), data_mounts.end(),
                               [&](const auto& m) { return d.rfind(m.first + "/", 0) == 0; });
        if (on == data_mounts.end()) throw std::invalid_argument(n.spec.pod + ": " + key + " " + d + " is not on a data volume of the pod");
        dirs += (dirs.empty() ? "" : ",") + on->second + d.substr(on->first.size());
      }
      value = dirs;
    } else if (key == "process.roles") {
      n.broker = value.find("broker") != std::string::npos;
    } else if (key.starts_with("config.providers.") && key.ends_with(".param.allowed.paths")) {
      // A config provider may read the mounts under the paths it is allowed: their folders here.
      std::string allowed;
      for (const auto& p : split(value, ','))
        for (const auto& [path, folder] : mounts)
          if (path == p || path.rfind(p + "/", 0) == 0) allowed += (allowed.empty() ? "" : ",") + folder;
      value = allowed.empty() ? value : allowed;
    } else {
      for (const auto& [path, folder] : mounts) {
        if (value.rfind(path + "/", 0) == 0) value = folder + value.substr(path.size());
        // A config provider's reference, ${provider:<path>:<key>}.
        for (auto at = value.find(":" + path + ":"); at != std::string::npos; at = value.find(":" + path + ":"))
          value.replace(at + 1, path.size(), folder);
      }
    }
    out += key + "=" + value + "\n";
  }
  n.config_path = dir_.file("kafka-" + n.spec.pod + ".properties");
  write_file(n.config_path, out);
}

void KafkaBrokers::format(const Node& n) const {
  auto args = java_command("kafka.tools.StorageTool", kafka_libs_dir(n.spec.kafka_version));
  args.insert(args.end(), {"format", "--cluster-id", n.spec.cluster_id, "--release-version", n.spec.metadata_version, "--config",
                           n.config_path, "--ignore-formatted"});
  auto r = run(args, {}, {}, std::chrono::seconds(60));
  if (r.code != 0)
    throw std::runtime_error("kafka-storage format of " + n.spec.pod + " (cluster.id " + n.spec.cluster_id + ", metadata.version " +
                             n.spec.metadata_version + ") failed with " + std::to_string(r.code) + ":\n" + r.out + r.err);
}

void KafkaBrokers::start(Node& n) {
  Process::Options o;
  o.args = java_command("kafka.Kafka", kafka_libs_dir(n.spec.kafka_version));
  // The names a TLS connection keeps resolve to 127.0.0.1, as the pod network's DNS would
  // resolve them to the node: the JVM reads them from a hosts file of its own.
  o.args.insert(o.args.begin() + 1, "-Djdk.net.hosts.file=" + hosts_file());
  if (!n.spec.metrics_config.empty()) {  // as Strimzi's kafka_run.sh adds the agent
    const std::string address = network_.address(n.spec.host, 9404);
    const std::string config = dir_.file("kafka-" + n.spec.pod + "-metrics-config.json");
    write_file(config, n.spec.metrics_config);
    o.args.insert(o.args.begin() + 1, "-javaagent:" + kafka_agent_jar() + "=" + address + ":" + config);
  }
  o.args.push_back(n.config_path);
  o.stdout_path = dir_.file("kafka-" + n.spec.pod + ".log");
  o.stderr_path = dir_.file("kafka-" + n.spec.pod + ".err");
  n.proc = std::make_unique<Process>(o);
}

KafkaBrokers::Node& KafkaBrokers::node(const std::string& pod) {
  for (auto& n : nodes_)
    if (n.spec.pod == pod) return n;
  throw std::out_of_range("no Kafka node " + pod);
}

const KafkaBrokers::Node& KafkaBrokers::node(const std::string& pod) const { return const_cast<KafkaBrokers*>(this)->node(pod); }

void KafkaBrokers::stop(const std::string& pod) {
  std::lock_guard<std::mutex> lock(mu_);
  Node& n = node(pod);
  if (n.proc) n.proc->stop(std::chrono::seconds(30));
}

void KafkaBrokers::start(KafkaNodeSpec spec) {
  std::lock_guard<std::mutex> lock(mu_);
  Node& n = node(spec.pod);
  if (n.proc) n.proc->stop(std::chrono::seconds(30));
  n.proc.reset();
  n.spec = std::move(spec);
  n.listen_ports.clear();
  prepare(n);  // the storage stays formatted: the pod's volume outlives it
  start(n);
}

bool KafkaBrokers::listening(const std::string& pod) {
  std::lock_guard<std::mutex> lock(mu_);
  Node& n = node(pod);
  if (!n.proc || !n.proc->running()) return false;
  for (auto port : n.listen_ports)
    if (!accepts_connections(port)) return false;
  return true;
}

std::string KafkaBrokers::bootstrap_servers(int port, bool by_name) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out;
  for (const auto& n : nodes_) {
    if (!n.broker) continue;
    std::string address = network_.address(n.spec.host, port);
    if (by_name) address = n.spec.host + address.substr(address.rfind(':'));
    out += (out.empty() ? "" : ",") + address;
  }
  return out;
}

std::string KafkaBrokers::hosts_file() const {
  const std::string path = dir_.file("kafka-hosts");
  std::string hosts = "127.0.0.1 localhost";
  for (const auto& n : nodes_) hosts += " " + n.spec.host;
  write_file(path, hosts + "\n");
  return path;
}

RunResult KafkaBrokers::java_client(const std::map<std::string, std::string>& properties, const std::vector<std::string>& command,
                                    std::chrono::seconds timeout) const {
  static std::atomic<int> calls{0};
  const std::string config = dir_.file("kafka-java-client-" + std::to_string(++calls) + ".properties");
  std::string text;
  for (const auto& [k, v] : properties) text += k + "=" + v + "\n";
  write_file(config, text);
  auto args = java_command("KafkaProbe", kafka_libs_dir(), ":" + kafka_tools_dir() + "/probe", "log4j2-client.yaml");
  {
    std::lock_guard<std::mutex> lock(mu_);  // a node may be restarting (KafkaPodAgent)
    args.insert(args.begin() + 1, "-Djdk.net.hosts.file=" + hosts_file());
  }
  args.push_back(config);
  args.insert(args.end(), command.begin(), command.end());
  return run(args, {}, {}, timeout);
}

std::string KafkaBrokers::metrics_address(const std::string& pod) {
  std::lock_guard<std::mutex> lock(mu_);
  return network_.address(node(pod).spec.host, 9404);
}

std::string KafkaBrokers::data_dir(const std::string& pod) const {
  std::lock_guard<std::mutex> lock(mu_);
  return node(pod).data_dir;
}

std::string KafkaBrokers::kafka_version(const std::string& pod) const {
  std::lock_guard<std::mutex> lock(mu_);
  const Node& n = node(pod);
  if (!n.proc) return "";
  const std::string log = n.proc->out();
  const std::string said = "Kafka version: ";
  const auto at = log.find(said);
  if (at == std::string::npos) return "";
  const auto from = at + said.size();
  return log.substr(from, log.find_first_of(" \n", from) - from);
}

std::string KafkaBrokers::logs() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out;
  for (const auto& n : nodes_) {
    if (!n.proc) continue;
    std::string log = n.proc->out() + n.proc->err();
    if (log.size() > 6000) log = "..." + log.substr(log.size() - 6000);  // the end says why
    out += "---- " + n.spec.pod + " ----\n" + log + "\n";
  }
  return out;
}

}  // namespace capstan::e2e
