#include "controllers/gitops/git/mirrors.h"

#include "controllers/gitops/git/source_ignore.h"

#include "apis/gitops/v1/repo_path.h"
#include "apis/gitops/v1/semver.h"
#include "controllers/gitops/git/known_hosts.h"
#include "controllers/gitops/git/libgit2.h"
#include "runtime/log/log.h"
#include "runtime/pki/certificate.h"
#include "runtime/pki/digest.h"
#include "runtime/pki/verify.h"
#include "runtime/meta/ascii.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstring>
#include <new>
#include <optional>
#include <set>
#include <tuple>
#include <type_traits>
#include <vector>

namespace capstan::gitops::git {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// ---------------------------------------------------------------------------------------------
// RAII for libgit2 objects.

template <auto Free>  // a function, or a member of LibGit2
struct Deleter {
  template <typename T>
  void operator()(T* p) const noexcept {
    if constexpr (std::is_member_pointer_v<decltype(Free)>) (libgit2().*Free)(p);
    else Free(p);
  }
};
using RepoPtr = std::unique_ptr<git_repository, Deleter<&LibGit2::git_repository_free>>;
using RemotePtr = std::unique_ptr<git_remote, Deleter<&LibGit2::git_remote_free>>;
using ObjectPtr = std::unique_ptr<git_object, Deleter<&LibGit2::git_object_free>>;
using CommitPtr = std::unique_ptr<git_commit, Deleter<&LibGit2::git_commit_free>>;
using TreePtr = std::unique_ptr<git_tree, Deleter<&LibGit2::git_tree_free>>;
using TreeEntryPtr = std::unique_ptr<git_tree_entry, Deleter<&LibGit2::git_tree_entry_free>>;
using BlobPtr = std::unique_ptr<git_blob, Deleter<&LibGit2::git_blob_free>>;
using OdbPtr = std::unique_ptr<git_odb, Deleter<&LibGit2::git_odb_free>>;

// ---------------------------------------------------------------------------------------------
// Deadlines. sync() publishes its deadline to the calling thread; the progress callbacks and the
// socket stream below (created on that same thread, inside libgit2) read it from there.

struct Deadline {
  bool bounded = false;
  Clock::time_point at{};
  std::chrono::milliseconds budget{0};

  bool passed() const { return bounded && Clock::now() >= at; }
};

thread_local const Deadline* t_deadline = nullptr;

class DeadlineScope {
 public:
  explicit DeadlineScope(const Deadline& d) : saved_(t_deadline) { t_deadline = &d; }
  ~DeadlineScope() { t_deadline = saved_; }
  DeadlineScope(const DeadlineScope&) = delete;
  DeadlineScope& operator=(const DeadlineScope&) = delete;

 private:
  const Deadline* saved_;
};

// What the remote callbacks of one sync() see (their payload): its deadline, the credentials of
// the GitRepository's secretRef, and the remote's host and port for the host key check.
struct Session {
  const Deadline* deadline = nullptr;
  const Credentials* credentials = nullptr;
  std::string host;
  int port = 22;
  int attempts = 0;  // credentials handed out: libgit2 asks again after a refusal
};

// Returning non-zero from a progress callback makes libgit2 abandon the transfer: this catches a
// server that keeps sending (progress or pack data) past the deadline, and a repository bigger
// than a mirror may grow by in one fetch (the disk of the manager is shared by every source).
int cancel_after_deadline(void* payload) {
  if (!static_cast<const Session*>(payload)->deadline->passed()) return 0;
  libgit2().git_error_set_str(GIT_ERROR_NET, "transfer cancelled at the deadline");
  return GIT_EUSER;
}
int on_sideband(const char*, int, void* payload) { return cancel_after_deadline(payload); }
int on_transfer(const git_indexer_progress* p, void* payload) {
  if (p->received_bytes > kMaxFetchBytes || p->total_objects > kMaxFetchObjects) {
    libgit2().git_error_set_str(GIT_ERROR_NET, ("the fetch is over the limit of " + std::to_string(kMaxFetchBytes >> 20) + " MiB or " +
                                                std::to_string(kMaxFetchObjects) + " objects; transfer cancelled")
                                                   .c_str());
    return GIT_EUSER;
  }
  return cancel_after_deadline(payload);
}

// ---------------------------------------------------------------------------------------------
// A plain TCP stream for libgit2 whose connect, reads and writes give up at the deadline of the
// sync() that created it (libgit2 1.5's own stream blocks for as long as the server is silent).
// libgit2 creates every git:// and http(s):// connection through the registered standard
// stream; TLS is layered on top of it.

struct StreamState {
  std::string host, port;
  int fd = -1;
  std::optional<Deadline> deadline;  // copied from the creating thread
};

// Laid out as libgit2's own git_socket_stream {parent, host, port, s}: its SSH transport reads
// the socket (`s`) of the standard stream to hand it to libssh2, which then does its own reads
// and writes on it (bounded by libssh2, not by the deadline).
struct DeadlineStream {
  git_stream parent;  // first member: libgit2 hands us back &parent
  char* host;
  char* port;
  int s;
  StreamState* state;
};

StreamState& state_of(git_stream* s) { return *reinterpret_cast<DeadlineStream*>(s)->state; }

void net_error(const std::string& message) { libgit2().git_error_set_str(GIT_ERROR_NET, message.c_str()); }

// Waits until the socket is ready for `events`; false (with libgit2's error set) on timeout.
bool wait_ready(StreamState& st, short events, const char* doing) {
  for (;;) {
    int wait_ms = -1;
    if (st.deadline && st.deadline->bounded) {
      auto left = std::chrono::ceil<std::chrono::milliseconds>(st.deadline->at - Clock::now());
      if (left.count() <= 0) {
        net_error(std::string("timed out ") + doing + " " + st.host + ":" + st.port);
        return false;
      }
      wait_ms = static_cast<int>(std::min<long long>(left.count(), INT_MAX));
    }
    pollfd p{st.fd, events, 0};
    int n = ::poll(&p, 1, wait_ms);
    if (n > 0) return true;  // errors and hang-ups surface in the next recv/send
    if (n < 0 && errno != EINTR) {
      net_error(std::string("poll failed ") + doing + " " + st.host + ": " + std::strerror(errno));
      return false;
    }
  }
}

// The connected socket, where libgit2's SSH transport looks for it (libssh2 waits on EAGAIN
// itself, so the non-blocking socket serves it as it is).
int connected(git_stream* s) {
  auto* ds = reinterpret_cast<DeadlineStream*>(s);
  ds->s = ds->state->fd;
  return 0;
}

int stream_connect(git_stream* s) {
  StreamState& st = state_of(s);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (int rc = ::getaddrinfo(st.host.c_str(), st.port.c_str(), &hints, &found); rc != 0) {
    net_error("failed to resolve address for " + st.host + ": " + ::gai_strerror(rc));
    return -1;
  }
  std::unique_ptr<addrinfo, Deleter<::freeaddrinfo>> addresses(found);
  std::string last = "no address";
  for (addrinfo* ai = addresses.get(); ai; ai = ai->ai_next) {
    st.fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (st.fd < 0) {
      last = std::strerror(errno);
      continue;
    }
    int rc = ::connect(st.fd, ai->ai_addr, ai->ai_addrlen);
    if (rc == 0) return connected(s);
    if (errno == EINPROGRESS) {
      if (!wait_ready(st, POLLOUT, "connecting to")) {
        ::close(st.fd);
        st.fd = -1;
        return -1;
      }
      int err = 0;
      socklen_t len = sizeof err;
      if (::getsockopt(st.fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0) return connected(s);
      last = std::strerror(err ? err : errno);
    } else {
      last = std::strerror(errno);
    }
    ::close(st.fd);
    st.fd = -1;
  }
  net_error("failed to connect to " + st.host + ":" + st.port + ": " + last);
  return -1;
}

ssize_t stream_read(git_stream* s, void* data, size_t len) {
  StreamState& st = state_of(s);
  for (;;) {
    ssize_t n = ::recv(st.fd, data, len, 0);
    if (n >= 0) return n;
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (!wait_ready(st, POLLIN, "reading from")) return -1;
      continue;
    }
    net_error("error receiving data from " + st.host + ": " + std::strerror(errno));
    return -1;
  }
}

ssize_t stream_write(git_stream* s, const char* data, size_t len, int flags) {
  StreamState& st = state_of(s);
  size_t done = 0;
  while (done < len) {
    ssize_t n = ::send(st.fd, data + done, len - done, flags | MSG_NOSIGNAL);
    if (n >= 0) {
      done += static_cast<size_t>(n);
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (!wait_ready(st, POLLOUT, "writing to")) return -1;
    } else if (errno != EINTR) {
      net_error("error sending data to " + st.host + ": " + std::strerror(errno));
      return -1;
    }
  }
  return static_cast<ssize_t>(len);
}

int stream_close(git_stream* s) {
  StreamState& st = state_of(s);
  if (st.fd >= 0) ::close(st.fd);
  st.fd = -1;
  reinterpret_cast<DeadlineStream*>(s)->s = -1;
  return 0;
}

void stream_free(git_stream* s) {
  stream_close(s);
  auto* ds = reinterpret_cast<DeadlineStream*>(s);
  delete ds->state;
  delete ds;
}

int stream_new(git_stream** out, const char* host, const char* port) {
  try {
    auto state = std::make_unique<StreamState>();
    state->host = host;
    state->port = port ? port : "";
    if (t_deadline) state->deadline = *t_deadline;
    auto* ds = new DeadlineStream{};
    ds->parent.version = GIT_STREAM_VERSION;
    ds->parent.connect = stream_connect;
    ds->parent.read = stream_read;
    ds->parent.write = stream_write;
    ds->parent.close = stream_close;
    ds->parent.free = stream_free;
    ds->host = state->host.data();
    ds->port = state->port.data();
    ds->s = -1;
    ds->state = state.release();
    *out = &ds->parent;
    return 0;
  } catch (const std::bad_alloc&) {
    libgit2().git_error_set_oom();
    return -1;
  }
}

// ---------------------------------------------------------------------------------------------
// Errors.

std::string libgit2_message() {
  const git_error* e = libgit2().git_error_last();
  return e && e->message ? e->message : "unknown libgit2 error";
}

// libgit2's text may quote the URL it was given; keep credentials out of it.
std::string scrub(std::string text, const std::string& raw_url) {
  auto scheme = raw_url.find("://");
  if (scheme == std::string::npos) return text;
  auto start = scheme + 3;
  auto authority = raw_url.substr(start, raw_url.find_first_of("/?#", start) - start);
  auto at = authority.rfind('@');
  if (at == std::string::npos) return text;
  std::string userinfo = authority.substr(0, at);
  auto erase_all = [&text](const std::string& needle) {
    for (auto pos = text.find(needle); !needle.empty() && pos != std::string::npos; pos = text.find(needle, pos))
      text.erase(pos, needle.size());
  };
  erase_all(userinfo + "@");
  erase_all(userinfo);
  if (auto colon = userinfo.find(':'); colon != std::string::npos && userinfo.size() - colon > 4)
    erase_all(userinfo.substr(colon + 1));
  return text;
}

// What an operation is about, for error messages.
struct Context {
  std::string raw_url;  // never printed
  std::string url;      // redacted
  std::string subject;  // the ref, commit or path
  const Deadline* deadline = nullptr;
};

// Throws for a failed libgit2 call: "git <op> <url> (<subject>): <libgit2 text>".
[[noreturn]] void fail(const Context& c, std::string_view op, int rc) {
  std::string msg = "git " + std::string(op) + " " + c.url;
  if (!c.subject.empty()) msg += " (" + c.subject + ")";
  std::string detail = scrub(libgit2_message(), c.raw_url);
  if (c.deadline && c.deadline->passed())
    msg += ": timed out after " + std::to_string(c.deadline->budget.count()) + "ms (" + detail + ")";
  else
    msg += ": " + detail;
  throw GitError(msg, rc);
}

[[noreturn]] void timed_out(const Context& c, std::string_view doing) {
  throw GitError("git sync " + c.url + " (" + c.subject + "): timed out after " +
                 std::to_string(c.deadline->budget.count()) + "ms " + std::string(doing));
}

// ---------------------------------------------------------------------------------------------
// Helpers.

void ensure_libgit2() {
  static const bool ready = [] {
    if (int rc = libgit2().git_libgit2_init(); rc < 0) throw GitError("libgit2 init: " + libgit2_message(), rc);
    git_stream_registration reg{};
    reg.version = GIT_STREAM_VERSION;
    reg.init = stream_new;
    if (int rc = libgit2().git_stream_register(GIT_STREAM_STANDARD, &reg); rc < 0)
      throw GitError("libgit2 stream registration: " + libgit2_message(), rc);
    return true;
  }();
  (void)ready;
}

std::string oid_hex(const git_oid& id) {
  char buf[GIT_OID_HEXSZ + 1] = {};
  libgit2().git_oid_fmt(buf, &id);
  return buf;
}

// A full commit id, lower-cased; throws for anything else.
git_oid parse_commit(const std::string& commit, std::string& hex, const Context& c) {
  hex = meta::ascii_lower(commit);
  git_oid id;
  auto is_hex = [](char ch) { return std::isxdigit(static_cast<unsigned char>(ch)) != 0; };
  if (hex.size() != GIT_OID_HEXSZ || !std::all_of(hex.begin(), hex.end(), is_hex) ||
      libgit2().git_oid_fromstr(&id, hex.c_str()) < 0)
    throw GitError("invalid commit \"" + commit + "\" for " + c.url + ": want 40 hex digits");
  return id;
}

std::string first_line(const char* message) {
  std::string m = message ? message : "";
  m = m.substr(0, m.find('\n'));
  if (!m.empty() && m.back() == '\r') m.pop_back();
  return m;
}

Resolved make_resolved(git_commit* commit, const std::string& label, bool fetched) {
  Resolved r;
  r.commit = oid_hex(*libgit2().git_commit_id(commit));
  r.revision = (label.empty() ? "" : label + "@") + "sha1:" + r.commit;
  r.message = first_line(libgit2().git_commit_message(commit));
  r.fetched = fetched;
  return r;
}

// Opens url's mirror, creating it when `create`; null when it does not exist and !create.
RepoPtr open_mirror(const fs::path& dir, const Context& c, bool create) {
  git_repository* raw = nullptr;
  int rc = libgit2().git_repository_open_bare(&raw, dir.c_str());
  if (rc == 0) return RepoPtr(raw);
  if (rc != GIT_ENOTFOUND) fail(c, "open mirror", rc);
  if (!create) return nullptr;
  if ((rc = libgit2().git_repository_init(&raw, dir.c_str(), /*is_bare=*/1)) < 0) fail(c, "init mirror", rc);
  return RepoPtr(raw);
}

// The commit `id` is, when it is local.
CommitPtr lookup_commit(git_repository* repo, const git_oid& id, const Context& c) {
  git_commit* raw = nullptr;
  int rc = libgit2().git_commit_lookup(&raw, repo, &id);
  if (rc == GIT_ENOTFOUND) return nullptr;  // also: the object exists but is not a commit
  if (rc < 0) fail(c, "lookup", rc);
  return CommitPtr(raw);
}

// The commit `id` (a commit or an annotated tag) peels to, when it is local.
CommitPtr peel_to_commit(git_repository* repo, const git_oid& id, const Context& c) {
  git_object* raw = nullptr;
  int rc = libgit2().git_object_lookup(&raw, repo, &id, GIT_OBJECT_ANY);
  if (rc == GIT_ENOTFOUND) return nullptr;
  if (rc < 0) fail(c, "lookup", rc);
  ObjectPtr object(raw);
  git_object* peeled = nullptr;
  rc = libgit2().git_object_peel(&peeled, object.get(), GIT_OBJECT_COMMIT);
  if (rc == GIT_ENOTFOUND) return nullptr;  // a tag whose target is not local
  if (rc < 0)
    throw GitError("git sync " + c.url + " (" + c.subject + "): " + oid_hex(id) + " is a " +
                   libgit2().git_object_type2string(libgit2().git_object_type(object.get())) + ", not a commit", rc);
  return CommitPtr(reinterpret_cast<git_commit*>(peeled));
}

std::string valid_ref(const std::string& refname, std::string_view kind, const std::string& given, const Context& c) {
  int valid = 0;
  if (given.empty() || libgit2().git_reference_name_is_valid(&valid, refname.c_str()) < 0 || !valid)
    throw GitError("invalid " + std::string(kind) + " \"" + given + "\" for " + c.url);
  return refname;
}

// The host and port of a URL ("ssh://git@host:2222/x" -> host, 2222; ssh's default 22).
std::pair<std::string, int> host_and_port(std::string_view url) {
  auto scheme = url.find("://");
  if (scheme == std::string_view::npos) return {"", 22};
  std::string_view authority = url.substr(scheme + 3);
  authority = authority.substr(0, authority.find('/'));
  if (auto at = authority.rfind('@'); at != std::string_view::npos) authority.remove_prefix(at + 1);
  std::string_view host = authority, port;
  if (authority.starts_with("[")) {
    auto close = authority.find(']');
    host = authority.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1);
    if (close != std::string_view::npos && authority.substr(close + 1).starts_with(":")) port = authority.substr(close + 2);
  } else if (auto colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  int p = 22;
  if (!port.empty()) std::from_chars(port.data(), port.data() + port.size(), p);
  return {std::string(host), p};
}

// libgit2 asks for credentials when the server wants them: the SSH key for ssh://, the username
// and password for http(s) basic authentication (a bearer token goes in a header instead). Once
// each: a second request means the server refused them. Nothing of them reaches a log or an error.
int on_credentials(git_credential** out, const char* /*url*/, const char* username_from_url, unsigned int allowed, void* payload) {
  auto* session = static_cast<Session*>(payload);
  const Credentials* c = session->credentials;
  if ((allowed & GIT_CREDENTIAL_USERNAME) && c) {  // ssh:// without a user: the secretRef's, else git
    return libgit2().git_credential_username_new(out, c->username.empty() ? "git" : c->username.c_str());
  }
  if (!c || session->attempts++ > 0) {
    libgit2().git_error_set_str(GIT_ERROR_NET, c ? "the server refused the credentials of the secretRef"
                                                 : "the server asks for credentials and the GitRepository has no secretRef");
    return GIT_EAUTH;
  }
  if ((allowed & GIT_CREDENTIAL_SSH_KEY) && !c->identity.empty()) {
    const char* user = username_from_url && *username_from_url ? username_from_url : (c->username.empty() ? "git" : c->username.c_str());
    return libgit2().git_credential_ssh_key_memory_new(out, user, nullptr, c->identity.c_str(), c->password.empty() ? nullptr : c->password.c_str());
  }
  if ((allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT) && !c->username.empty())
    return libgit2().git_credential_userpass_plaintext_new(out, c->username.c_str(), c->password.c_str());
  libgit2().git_error_set_str(GIT_ERROR_NET, (allowed & GIT_CREDENTIAL_SSH_KEY) ? "the server wants an SSH key: the secretRef has no identity"
                                                                                 : "the server wants a username and password: the secretRef has none");
  return GIT_EAUTH;
}

const char* raw_type_name(git_cert_ssh_raw_type_t t) {
  switch (t) {
    case GIT_CERT_SSH_RAW_TYPE_RSA: return "ssh-rsa";
    case GIT_CERT_SSH_RAW_TYPE_DSS: return "ssh-dss";
    case GIT_CERT_SSH_RAW_TYPE_KEY_ECDSA_256: return "ecdsa-sha2-nistp256";
    case GIT_CERT_SSH_RAW_TYPE_KEY_ECDSA_384: return "ecdsa-sha2-nistp384";
    case GIT_CERT_SSH_RAW_TYPE_KEY_ECDSA_521: return "ecdsa-sha2-nistp521";
    case GIT_CERT_SSH_RAW_TYPE_KEY_ED25519: return "ssh-ed25519";
    default: return "unknown";
  }
}

// An https server's certificate that the system's CAs do not vouch for: accepted when it chains to
// the secretRef's ca.crt and names the host (DNS name or IP address), for server authentication.
int check_tls_certificate(const git_cert_x509* cert, const char* host, const Session& session) {
  const std::string name = host ? host : session.host;
  try {
    auto leaf = pki::Certificate::parse_der(std::string_view(static_cast<const char*>(cert->data), cert->len));
    auto roots = pki::Certificate::parse_chain(session.credentials->ca_pem);
    pki::VerifyOptions o;
    unsigned char addr[16];
    if (::inet_pton(AF_INET, name.c_str(), addr) == 1 || ::inet_pton(AF_INET6, name.c_str(), addr) == 1) o.ip_address = name;
    else o.dns_name = name;
    o.purpose = pki::ExtKeyUsage::ServerAuth;
    auto result = pki::verify_chain(leaf, {}, roots, o);
    if (result) return 0;
    libgit2().git_error_set_str(GIT_ERROR_SSL, ("the certificate of " + name + " is not valid for the secretRef's ca.crt: " + result.error).c_str());
  } catch (const std::exception& e) {
    libgit2().git_error_set_str(GIT_ERROR_SSL, ("checking the certificate of " + name + " against the secretRef's ca.crt: " + e.what()).c_str());
  }
  return GIT_ECERTIFICATE;
}

// SSH host keys must be in the secretRef's known_hosts (an unknown host is refused, as Flux's).
// TLS certificates keep libgit2's own verification, and one it refuses may still chain to the
// secretRef's ca.crt.
int on_certificate(git_cert* cert, int valid, const char* host, void* payload) {
  if (cert->cert_type == GIT_CERT_X509) {
    const auto* session = static_cast<const Session*>(payload);
    if (valid || !session->credentials || session->credentials->ca_pem.empty()) return GIT_PASSTHROUGH;
    return check_tls_certificate(reinterpret_cast<const git_cert_x509*>(cert), host, *session);
  }
  if (cert->cert_type != GIT_CERT_HOSTKEY_LIBSSH2) return GIT_PASSTHROUGH;
  const auto* session = static_cast<const Session*>(payload);
  const auto* key = reinterpret_cast<const git_cert_hostkey*>(cert);
  const std::string name = host ? host : session->host;
  if (!session->credentials || session->credentials->known_hosts.empty()) {
    libgit2().git_error_set_str(GIT_ERROR_SSH, ("refusing the host key of " + name + ": no known_hosts in the GitRepository's secretRef").c_str());
    return GIT_ECERTIFICATE;
  }
  if (!(key->type & GIT_CERT_SSH_RAW)) {
    libgit2().git_error_set_str(GIT_ERROR_SSH, "the SSH transport did not give the server's host key");
    return GIT_ECERTIFICATE;
  }
  if (known_host(session->credentials->known_hosts, name, session->port, std::string_view(key->hostkey, key->hostkey_len))) return 0;
  libgit2().git_error_set_str(GIT_ERROR_SSH, ("unknown host key: the " + std::string(raw_type_name(key->raw_type)) + " key of " + name + ":" +
                                              std::to_string(session->port) + " is not in the secretRef's known_hosts")
                                                 .c_str());
  return GIT_ECERTIFICATE;
}

git_remote_callbacks callbacks_for(Session& session) {
  git_remote_callbacks cbs;
  libgit2().git_remote_init_callbacks(&cbs, GIT_REMOTE_CALLBACKS_VERSION);
  cbs.sideband_progress = on_sideband;
  cbs.transfer_progress = on_transfer;
  cbs.credentials = on_credentials;
  cbs.certificate_check = on_certificate;
  cbs.payload = &session;
  return cbs;
}

// "Authorization: Bearer <token>" for http(s) when the secretRef has a bearerToken.
struct Headers {
  std::vector<std::string> lines;
  std::vector<char*> pointers;
  git_strarray array{nullptr, 0};

  explicit Headers(const Credentials* c) {
    if (c && !c->bearer_token.empty()) lines.push_back("Authorization: Bearer " + c->bearer_token);
    for (auto& l : lines) pointers.push_back(l.data());
    array = {pointers.data(), pointers.size()};
  }
  Headers(const Headers&) = delete;  // `array` points into this object
  Headers& operator=(const Headers&) = delete;
};

git_proxy_options proxy_options() {
  git_proxy_options proxy;
  libgit2().git_proxy_options_init(&proxy, GIT_PROXY_OPTIONS_VERSION);
  proxy.type = GIT_PROXY_AUTO;  // http.proxy or the https_proxy/http_proxy/no_proxy environment
  return proxy;
}

RemotePtr anonymous_remote(git_repository* repo, const Context& c) {
  // libgit2 takes a path that does not exist for a URL ("unsupported URL protocol").
  const std::string& u = c.raw_url;
  const auto colon = u.find(':');
  bool local_path = u.find("://") == std::string::npos && (colon == std::string::npos || colon > u.find('/'));
  std::error_code ec;
  if (local_path && !fs::exists(u, ec))
    throw GitError("git sync " + c.url + " (" + c.subject + "): no repository at this path");
  // An anonymous (in-memory) remote on the mirror, as git_remote_create_anonymous makes, minus
  // url.<base>.insteadOf: the URL is used as given, whatever the process's ~/.gitconfig says. (Also
  // libgit2 1.5 leaks ~20 KiB of PCRE2 match data per config entry when it applies insteadOf.)
  git_remote_create_options opts;
  libgit2().git_remote_create_options_init(&opts, GIT_REMOTE_CREATE_OPTIONS_VERSION);
  opts.repository = repo;
  opts.name = nullptr;
  opts.flags = GIT_REMOTE_CREATE_SKIP_INSTEADOF;
  git_remote* raw = nullptr;
  if (int rc = libgit2().git_remote_create_with_opts(&raw, c.raw_url.c_str(), &opts); rc < 0) fail(c, "remote", rc);
  return RemotePtr(raw);
}

// Fetches `refspecs` (each writing into the mirror's ref of the same name) over `remote`,
// reusing its connection when it has one.
void fetch(git_remote* remote, const std::vector<std::string>& refspecs, const git_remote_callbacks& cbs, const Headers& headers,
           const Context& c) {
  std::vector<char*> specs;
  for (const auto& s : refspecs) specs.push_back(const_cast<char*>(s.c_str()));
  git_strarray array{specs.data(), specs.size()};
  git_fetch_options opts;
  libgit2().git_fetch_options_init(&opts, GIT_FETCH_OPTIONS_VERSION);
  opts.callbacks = cbs;
  opts.prune = GIT_FETCH_NO_PRUNE;
  opts.update_fetchhead = 0;
  opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
  opts.proxy_opts = proxy_options();
  opts.custom_headers = headers.array;
  if (int rc = libgit2().git_remote_fetch(remote, &array, &opts, "capstan: fetch"); rc < 0) fail(c, "fetch", rc);
}

}  // namespace

// ---------------------------------------------------------------------------------------------

std::string redact_url(std::string_view url) {
  auto scheme = url.find("://");
  if (scheme == std::string_view::npos) return std::string(url);
  auto start = scheme + 3;
  auto end = std::min(url.find_first_of("/?#", start), url.size());
  auto at = url.substr(start, end - start).rfind('@');
  if (at == std::string_view::npos) return std::string(url);
  return std::string(url.substr(0, start)) + std::string(url.substr(start + at + 1));
}

// Touches nothing: libgit2 is loaded and the root made by the first sync (see libgit2.h), so
// wiring the controller (also done only to record what it reads) has no side effect.
Mirrors::Mirrors(std::filesystem::path root) : root_(std::move(root)) {}

Mirrors::~Mirrors() = default;

std::filesystem::path Mirrors::mirror_path(const std::string& url) const {
  const std::string name = pki::sha256_hex(url, 8);
  return root_ / (name + ".git");
}

std::shared_ptr<std::timed_mutex> Mirrors::lock_for(const std::string& url) const {
  std::lock_guard guard(locks_mu_);
  auto& slot = locks_[url];
  if (!slot) slot = std::make_shared<std::timed_mutex>();
  return slot;
}

Resolved Mirrors::sync(const std::string& url, const Ref& ref, std::chrono::milliseconds timeout, const Credentials* credentials) {
  ensure_libgit2();
  auto started = Clock::now();
  Deadline deadline{timeout.count() > 0, started + timeout, timeout};
  DeadlineScope scope(deadline);
  Session session{&deadline, credentials};
  std::tie(session.host, session.port) = host_and_port(url);
  const Headers headers(credentials);

  Context c{url, redact_url(url), "", &deadline};
  std::string label;    // the revision's "<label>@" part
  std::string refname;  // the ref asked of the remote; empty for a commit ref
  std::string commit_hex;
  git_oid commit_id{};
  std::optional<apis::gitops::v1::SemverConstraint> semver;
  if (!ref.commit.empty()) {
    c.subject = "commit " + ref.commit;
    commit_id = parse_commit(ref.commit, commit_hex, c);
    if (!ref.branch.empty()) {
      label = ref.branch;
      refname = valid_ref("refs/heads/" + ref.branch, "branch", ref.branch, c);
    }
  } else if (!ref.name.empty()) {
    label = ref.name;
    if (!ref.name.starts_with("refs/"))
      throw GitError("invalid ref name \"" + ref.name + "\" for " + c.url + ": want refs/...");
    refname = valid_ref(ref.name, "ref name", ref.name, c);
  } else if (!ref.semver.empty()) {
    try {
      semver = apis::gitops::v1::SemverConstraint::parse(ref.semver);
    } catch (const std::invalid_argument& e) {
      throw GitError("invalid semver range \"" + ref.semver + "\" for " + c.url + ": " + e.what());
    }
    c.subject = "semver " + ref.semver;  // refname: the highest matching tag, from the remote
  } else if (!ref.tag.empty()) {
    label = ref.tag;
    refname = valid_ref("refs/tags/" + ref.tag, "tag", ref.tag, c);
  } else {
    label = ref.branch.empty() ? "master" : ref.branch;
    refname = valid_ref("refs/heads/" + label, "branch", label, c);
  }
  if (c.subject.empty()) c.subject = refname;

  auto mu = lock_for(url);
  std::unique_lock lock(*mu, std::defer_lock);
  if (!deadline.bounded)
    lock.lock();
  else if (!lock.try_lock_until(deadline.at))
    timed_out(c, "waiting for another operation on this repository");

  std::error_code ec;
  fs::create_directories(root_, ec);
  if (ec) throw GitError("creating the Git mirror root " + root_.string() + ": " + ec.message());
  RepoPtr repo = open_mirror(mirror_path(url), c, /*create=*/true);
  git_remote_callbacks cbs = callbacks_for(session);
  auto done = [&](CommitPtr commit, bool fetched) {
    Resolved r = make_resolved(commit.get(), label, fetched);
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
    log::debug(fetched ? "git fetched" : "git commit already local",
               {{"url", c.url}, {"ref", c.subject}, {"revision", r.revision}, {"ms", ms}});
    return r;
  };

  if (!ref.commit.empty()) {
    // A commit names its content: when it is local there is nothing to ask the remote.
    if (CommitPtr commit = lookup_commit(repo.get(), commit_id, c)) return done(std::move(commit), false);
    RemotePtr remote = anonymous_remote(repo.get(), c);
    std::vector<std::string> specs{"+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"};
    if (!refname.empty()) specs = {"+" + refname + ":" + refname};
    fetch(remote.get(), specs, cbs, headers, c);
    CommitPtr commit = lookup_commit(repo.get(), commit_id, c);
    if (!commit)
      throw GitError("commit " + commit_hex + " not found in " + c.url +
                     (refname.empty() ? "" : " branch " + ref.branch));
    return done(std::move(commit), true);
  }

  // ls-remote: which object does the remote's ref point at?
  RemotePtr remote = anonymous_remote(repo.get(), c);
  git_proxy_options proxy = proxy_options();
  if (int rc = libgit2().git_remote_connect(remote.get(), GIT_DIRECTION_FETCH, &cbs, &proxy, &headers.array); rc < 0)
    fail(c, "ls-remote", rc);
  const git_remote_head** heads = nullptr;
  size_t count = 0;
  if (int rc = libgit2().git_remote_ls(&heads, &count, remote.get()); rc < 0) fail(c, "ls-remote", rc);
  if (semver) {
    // The highest tag whose name is a version in the range (Flux's semver ref).
    std::optional<apis::gitops::v1::Version> best;
    std::string best_tag;
    for (size_t i = 0; i < count; ++i) {
      std::string_view name = heads[i]->name;
      if (!name.starts_with("refs/tags/") || name.ends_with("^{}")) continue;
      auto version = apis::gitops::v1::Version::parse(name.substr(10));
      if (!version || !semver->matches(*version) || (best && version->compare(*best) <= 0)) continue;
      best = version;
      best_tag = std::string(name.substr(10));
    }
    if (!best) throw GitError("no tag of " + c.url + " matches semver range \"" + ref.semver + "\"");
    label = best_tag;
    refname = "refs/tags/" + best_tag;
  }
  std::optional<git_oid> direct, peeled;
  const std::string peeled_name = refname + "^{}";
  for (size_t i = 0; i < count; ++i) {
    if (refname == heads[i]->name) direct = heads[i]->oid;
    if (peeled_name == heads[i]->name) peeled = heads[i]->oid;  // an annotated tag's commit
  }
  if (!direct) throw GitError("reference " + refname + " not found at " + c.url);
  const git_oid target = peeled ? *peeled : *direct;

  if (CommitPtr commit = peel_to_commit(repo.get(), target, c)) {
    libgit2().git_remote_disconnect(remote.get());
    return done(std::move(commit), false);
  }
  if (deadline.passed()) timed_out(c, "before fetching");
  fetch(remote.get(), {"+" + refname + ":" + refname}, cbs, headers, c);
  CommitPtr commit = peel_to_commit(repo.get(), target, c);
  if (!commit)
    throw GitError("git fetch " + c.url + " (" + refname + "): commit " + oid_hex(target) +
                   " still missing after the fetch");
  return done(std::move(commit), true);
}

Listing Mirrors::listing(const std::string& url, const std::string& commit, const std::string& path,
                         const std::optional<std::string>& ignore) const {
  ensure_libgit2();
  Context c{url, redact_url(url), "commit " + commit, nullptr};
  std::string hex;
  git_oid id = parse_commit(commit, hex, c);
  const std::string revision = "sha1:" + hex;
  const auto clean = apis::gitops::v1::clean_repo_path(path);
  if (!clean) throw GitError("path " + path + " leaves the repository");
  const std::string dir = *clean;

  auto mu = lock_for(url);
  std::lock_guard lock(*mu);
  RepoPtr repo = open_mirror(mirror_path(url), c, /*create=*/false);
  CommitPtr head = repo ? lookup_commit(repo.get(), id, c) : nullptr;
  if (!head) throw GitError("commit " + hex + " is not in the local mirror of " + c.url + " (sync it first)");

  git_tree* raw = nullptr;
  if (int rc = libgit2().git_commit_tree(&raw, head.get()); rc < 0) fail(c, "read tree", rc);
  TreePtr tree(raw);

  // The ignore rules: the defaults and spec.ignore, then the .sourceignore files of the
  // directories above `path` (root first) and, during the walk, of each directory below it.
  git_odb* odb_raw = nullptr;
  if (int rc = libgit2().git_repository_odb(&odb_raw, repo.get()); rc < 0) fail(c, "open object database", rc);
  OdbPtr odb(odb_raw);
  SourceIgnore rules(ignore);
  auto size_of = [&](const git_tree_entry* e, const std::string& name) {
    size_t size = 0;
    git_object_t type = GIT_OBJECT_INVALID;
    if (int rc = libgit2().git_odb_read_header(&size, &type, odb.get(), libgit2().git_tree_entry_id(e)); rc < 0) fail(c, "read " + name, rc);
    return size;
  };
  auto add_ignore_file = [&](const git_tree* t, const std::string& at) {
    const git_tree_entry* e = libgit2().git_tree_entry_byname(t, std::string(kSourceIgnoreFile).c_str());
    if (!e || libgit2().git_tree_entry_type(e) != GIT_OBJECT_BLOB) return;
    const std::string name = at.empty() ? std::string(kSourceIgnoreFile) : at + "/" + std::string(kSourceIgnoreFile);
    if (size_of(e, name) > kMaxIgnoreFileBytes)
      throw GitError(name + " in " + revision + " is larger than " + std::to_string(kMaxIgnoreFileBytes) + " bytes");
    git_blob* blob_raw = nullptr;
    if (int rc = libgit2().git_blob_lookup(&blob_raw, repo.get(), libgit2().git_tree_entry_id(e)); rc < 0) fail(c, "read " + name, rc);
    BlobPtr blob(blob_raw);
    rules.add_file(std::string_view(static_cast<const char*>(libgit2().git_blob_rawcontent(blob.get())),
                                    static_cast<size_t>(libgit2().git_blob_rawsize(blob.get()))),
                   at);
  };
  for (std::size_t slash = 0; !dir.empty() && slash != std::string::npos; slash = dir.find('/', slash + 1)) {
    const std::string above = dir.substr(0, slash);
    if (above.empty()) {
      add_ignore_file(tree.get(), "");
      continue;
    }
    git_tree_entry* entry_raw = nullptr;
    if (libgit2().git_tree_entry_bypath(&entry_raw, tree.get(), above.c_str()) < 0) break;
    TreeEntryPtr entry(entry_raw);
    if (libgit2().git_tree_entry_type(entry.get()) != GIT_OBJECT_TREE) break;
    git_tree* above_raw = nullptr;
    if (int rc = libgit2().git_tree_lookup(&above_raw, repo.get(), libgit2().git_tree_entry_id(entry.get())); rc < 0) fail(c, "read tree", rc);
    TreePtr above_tree(above_raw);
    add_ignore_file(above_tree.get(), above);
  }
  if (!dir.empty()) {
    git_tree_entry* entry_raw = nullptr;
    int rc = libgit2().git_tree_entry_bypath(&entry_raw, tree.get(), dir.c_str());
    if (rc == GIT_ENOTFOUND) throw GitError("path " + path + " not found in " + revision);
    if (rc < 0) fail(c, "read tree", rc);
    TreeEntryPtr entry(entry_raw);
    if (libgit2().git_tree_entry_type(entry.get()) != GIT_OBJECT_TREE)
      throw GitError("path " + path + " not found in " + revision + ": it is not a directory");
    if ((rc = libgit2().git_tree_lookup(&raw, repo.get(), libgit2().git_tree_entry_id(entry.get()))) < 0) fail(c, "read tree", rc);
    tree.reset(raw);
  }

  Listing out;
  std::vector<std::pair<TreePtr, std::string>> pending;  // trees still to list, with their prefix
  pending.emplace_back(std::move(tree), "");
  while (!pending.empty()) {
    auto [t, prefix] = std::move(pending.back());
    pending.pop_back();
    const std::string here = dir.empty() ? prefix : dir + (prefix.empty() ? "" : "/" + prefix);
    add_ignore_file(t.get(), here.ends_with('/') ? here.substr(0, here.size() - 1) : here);
    for (size_t i = 0, n = libgit2().git_tree_entrycount(t.get()); i < n; ++i) {
      const git_tree_entry* e = libgit2().git_tree_entry_byindex(t.get(), i);
      const std::string name = prefix + libgit2().git_tree_entry_name(e);
      const auto mode = libgit2().git_tree_entry_filemode(e);
      if (rules.excluded(dir.empty() ? name : dir + "/" + name, mode == GIT_FILEMODE_TREE)) continue;
      switch (mode) {
        case GIT_FILEMODE_TREE: {
          if (int rc = libgit2().git_tree_lookup(&raw, repo.get(), libgit2().git_tree_entry_id(e)); rc < 0)
            fail(c, "read tree " + name, rc);
          pending.emplace_back(TreePtr(raw), name + "/");
          break;
        }
        case GIT_FILEMODE_BLOB:
        case GIT_FILEMODE_BLOB_EXECUTABLE: {
          if (out.size() >= kMaxListing)
            throw GitError("files of " + revision + " at path " + (path.empty() ? "." : path) + " in " + c.url + ": more than " +
                           std::to_string(kMaxListing) + " files");
          char oid[GIT_OID_HEXSZ + 1] = {};
          libgit2().git_oid_fmt(oid, libgit2().git_tree_entry_id(e));
          out.emplace(name, BlobRef{std::string(oid, GIT_OID_HEXSZ), size_of(e, name)});
          break;
        }
        default:  // symlinks, submodules (gitlinks)
          break;
      }
    }
  }
  return out;
}

std::vector<std::string> Mirrors::read_blobs(const std::string& url, const std::vector<std::string>& oids) const {
  ensure_libgit2();
  Context c{url, redact_url(url), "read", nullptr};
  auto mu = lock_for(url);
  std::lock_guard lock(*mu);
  RepoPtr repo = open_mirror(mirror_path(url), c, /*create=*/false);
  if (!repo) throw GitError("there is no local mirror of " + c.url + " (sync it first)");
  std::vector<std::string> out;
  out.reserve(oids.size());
  for (const auto& hex : oids) {
    git_oid id;
    if (hex.size() != GIT_OID_HEXSZ || libgit2().git_oid_fromstr(&id, hex.c_str()) < 0) throw GitError("not a blob id: " + hex);
    git_blob* blob_raw = nullptr;
    if (int rc = libgit2().git_blob_lookup(&blob_raw, repo.get(), &id); rc < 0) fail(c, "read blob " + hex, rc);
    BlobPtr blob(blob_raw);
    out.emplace_back(static_cast<const char*>(libgit2().git_blob_rawcontent(blob.get())), static_cast<size_t>(libgit2().git_blob_rawsize(blob.get())));
  }
  return out;
}

std::map<std::string, std::string> Mirrors::files(const std::string& url, const std::string& commit,
                                                  const std::string& path, const Limits& limits,
                                                  const std::optional<std::string>& ignore) const {
  const Listing list = listing(url, commit, path, ignore);
  auto over = [&](const std::string& what) {
    return GitError("files of sha1:" + commit + " at path " + (path.empty() ? "." : path) + " in " + redact_url(url) + ": " + what);
  };
  if (list.size() > limits.max_files) throw over("more than " + std::to_string(limits.max_files) + " files, over the max_files limit");
  std::size_t total = 0;
  std::vector<std::string> oids;
  for (const auto& [name, blob] : list) {
    if (blob.size > limits.max_file_bytes)
      throw over("file " + name + " is " + std::to_string(blob.size) + " bytes, over the max_file_bytes limit of " +
                 std::to_string(limits.max_file_bytes));
    if (total + blob.size > limits.max_total_bytes)
      throw over("files total more than " + std::to_string(limits.max_total_bytes) + " bytes, over the max_total_bytes limit (at " + name + ")");
    total += blob.size;
    oids.push_back(blob.oid);
  }
  auto contents = read_blobs(url, oids);
  std::map<std::string, std::string> out;
  std::size_t i = 0;
  for (const auto& [name, blob] : list) out.emplace(name, std::move(contents[i++]));
  return out;
}

bool Mirrors::has_commit(const std::string& url, const std::string& commit) const {
  ensure_libgit2();
  Context c{url, redact_url(url), "commit " + commit, nullptr};
  std::string hex;
  git_oid id = parse_commit(commit, hex, c);
  auto mu = lock_for(url);
  std::lock_guard lock(*mu);
  RepoPtr repo = open_mirror(mirror_path(url), c, /*create=*/false);
  return repo && lookup_commit(repo.get(), id, c) != nullptr;
}

std::size_t Mirrors::collect(const std::vector<std::string>& keep) {
  std::set<std::string> kept;
  for (const auto& url : keep) kept.insert(mirror_path(url).filename().string());
  std::size_t removed = 0;
  auto drop = [&](const fs::path& dir) {
    std::error_code ec;
    if (fs::exists(dir, ec) && fs::remove_all(dir, ec) > 0 && !ec) ++removed;
    if (ec) log::warn("cannot remove an unused Git mirror", {{"path", dir.string()}, {"error", ec.message()}});
  };
  // Mirrors of URLs used since the start: under their own lock, skipped while busy.
  std::vector<std::pair<std::string, std::shared_ptr<std::timed_mutex>>> used;
  {
    std::lock_guard guard(locks_mu_);
    used.assign(locks_.begin(), locks_.end());
  }
  for (const auto& [url, mu] : used) {
    if (kept.contains(mirror_path(url).filename().string())) continue;
    std::unique_lock lock(*mu, std::try_to_lock);
    if (lock.owns_lock()) drop(mirror_path(url));
  }
  // Mirrors of URLs not used since the start (left by an earlier run): while locks_mu_ is held
  // no call can begin on any URL, so none is in use.
  std::lock_guard guard(locks_mu_);
  for (const auto& [url, mu] : locks_) kept.insert(mirror_path(url).filename().string());
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root_, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && name.size() > 4 && name.ends_with(".git") && !kept.contains(name)) drop(entry.path());
  }
  return removed;
}

std::uintmax_t Mirrors::disk_usage() const {
  std::uintmax_t bytes = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root_, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file(ec)) bytes += it->file_size(ec);
  return bytes;
}

void Mirrors::remove(const std::string& url) {
  auto mu = lock_for(url);
  std::lock_guard lock(*mu);
  std::error_code ec;
  fs::remove_all(mirror_path(url), ec);
  if (ec) throw GitError("removing the mirror of " + redact_url(url) + ": " + ec.message());
}

}  // namespace capstan::gitops::git
