#include "controllers/certificates/cli/create_request.h"

#include "apis/certs/v1/certificate_request.h"
#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "apis/certs/v1/validation.h"
#include "controllers/certificates/cli/cli.h"
#include "controllers/certificates/cli/convert.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/request_builder.h"
#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/object.h"
#include "runtime/pki/key.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace capstan::certificates::cli {
namespace {

namespace v1 = apis::certs::v1;

// The manifest's one Certificate, at certs.capstan.dev/v1 (a cert-manager.io/v1 one is converted;
// other objects are passed over).
json::Value read_certificate(const std::string& yaml) {
  std::vector<json::Value> docs;
  try {
    docs = json::from_yaml_documents(yaml, "the Certificate manifest");
  } catch (const std::exception& e) {
    throw CliError(e.what());
  }
  std::vector<json::Value> certificates;
  for (auto& o : convert_from_cert_manager(docs).objects)
    if (json::get_string(o, {"apiVersion"}) == v1::kApiVersion && json::get_string(o, {"kind"}) == v1::kCertificateKind)
      certificates.push_back(std::move(o));
  if (certificates.size() != 1)
    throw CliError("the manifest must hold exactly one Certificate (certs.capstan.dev/v1 or cert-manager.io/v1), not " +
                   std::to_string(certificates.size()));
  json::Value obj = std::move(certificates[0]);
  auto causes = v1::validate_certificate(obj);
  if (!causes.empty()) {
    std::string msg = "the Certificate is invalid:";
    for (const auto& e : validation::errors(causes)) msg += "\n  " + e;
    throw CliError(msg);
  }
  return obj;
}

// Creates `path` with `content`, mode 0600; refuses to overwrite.
void write_new_file(const std::string& path, const std::string& content, const char* what) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    throw CliError(std::string("cannot write the ") + what + " to " + path + ": " + std::strerror(errno) +
                   (errno == EEXIST ? " (it is not overwritten)" : ""));
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int err = errno;
      ::close(fd);
      throw CliError(std::string("writing the ") + what + " to " + path + ": " + std::strerror(err));
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

}  // namespace

std::vector<std::string> create_request(client::Client& c, CreateRequestOptions o) {
  json::Value obj = read_certificate(o.certificate_yaml);
  const std::string manifest_ns(meta::namespace_of(obj));
  if (!manifest_ns.empty() && manifest_ns != o.ns)
    throw CliError("the Certificate is in namespace \"" + manifest_ns + "\" but the request would be made in \"" + o.ns +
                   "\" (use -n " + manifest_ns + ")");
  obj.get_object()["metadata"].get_object()["namespace"] = o.ns;
  auto crt = v1::Certificate::from_json(obj);
  if (o.name.empty()) o.name = std::string(crt.name());
  if (o.key_file.empty()) o.key_file = o.name + ".key";
  if (o.certificate_file.empty()) o.certificate_file = o.name + ".crt";

  pki::PrivateKey key = pki::PrivateKey::generate(v1::effective_key_algorithm(crt.spec), v1::effective_key_size(crt.spec));
  v1::CertificateRequest cr;
  cr.metadata["name"] = o.name;
  cr.metadata["namespace"] = o.ns;
  cr.metadata["annotations"] = json::Object{{annotation::kCertificateName, std::string(crt.name())}};
  if (const auto* labels = json::get_object(crt.metadata, {"labels"}); labels && !labels->empty()) cr.metadata["labels"] = *labels;
  cr.spec = request_spec(crt, build_csr(crt.spec, key));

  // The key first: a request whose key could not be kept would be useless.
  write_new_file(o.key_file, key.to_pem(v1::effective_key_encoding(crt.spec)), "private key");
  try {
    c.create(kCertificateRequestType.gvr, o.ns, cr.to_json());
  } catch (const client::ApiError& e) {
    ::unlink(o.key_file.c_str());
    throw CliError("creating CertificateRequest " + o.ns + "/" + o.name + ": " + e.what());
  }
  std::vector<std::string> lines{"CertificateRequest " + o.ns + "/" + o.name + " created; private key written to " + o.key_file};
  if (!o.fetch_certificate) return lines;

  const auto deadline = std::chrono::steady_clock::now() + o.timeout;
  while (true) {
    auto live = v1::CertificateRequest::from_json(c.get(kCertificateRequestType.gvr, o.ns, o.name));
    const auto& s = live.status;
    if (const auto* denied = s.condition(v1::condition::kDenied); denied && denied->status == "True")
      throw CliError("CertificateRequest " + o.ns + "/" + o.name + " was denied: " + denied->message);
    if (const auto* ready = s.condition(v1::condition::kReady)) {
      if (ready->status == "True" && !s.certificate.empty()) {
        write_new_file(o.certificate_file, s.certificate, "certificate");
        lines.push_back("certificate written to " + o.certificate_file);
        return lines;
      }
      if (ready->reason == "Failed")
        throw CliError("CertificateRequest " + o.ns + "/" + o.name + " failed: " + ready->message);
    }
    if (std::chrono::steady_clock::now() + o.poll > deadline)
      throw CliError("CertificateRequest " + o.ns + "/" + o.name + " was not signed within the timeout (the key stays in " +
                     o.key_file + ")");
    std::this_thread::sleep_for(o.poll);
  }
}

}  // namespace capstan::certificates::cli
