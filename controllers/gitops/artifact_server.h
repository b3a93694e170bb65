// Serves each GitRepository's current artifact as a .tar.gz at
// http://<--gitops-storage-adv-addr>/gitrepository/<namespace>/<name>/<id>.tar.gz, the URL its
// status.artifact.url names (Flux's source-controller storage server, --storage-addr): for tools
// and people that want what the Kustomizations read. Only the current artifact is served; the
// tarball is made on demand from the Git mirrors (artifact_archive.h) and streamed.
#pragma once

#include <memory>
#include <string>

namespace capstan::http {
class Server;
struct Request;
class Reply;
}  // namespace capstan::http

namespace capstan::gitops {

struct Env;

class ArtifactServer {
 public:
  // `bind`: "host:port" (":9090" all interfaces, port 0 a free one). `advertised`: host[:port]
  // the URLs name; empty: the bound address ("localhost:<port>" when bound to every interface).
  ArtifactServer(Env& env, std::string bind, std::string advertised);
  ~ArtifactServer();
  // Binds (throws naming the address), then sets env.artifact_base_url.
  void start();
  void stop();

 private:
  void handle(http::Request& request, http::Reply& reply);

  Env& env_;
  std::string bind_, advertised_;
  std::unique_ptr<http::Server> server_;
};

}  // namespace capstan::gitops
