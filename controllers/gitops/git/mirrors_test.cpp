// Mirrors against real repositories made with the git CLI, reached as local paths, file:// URLs
// and through a git-daemon on 127.0.0.1.
#include "controllers/gitops/git/mirrors.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>
#include <vector>

extern char** environ;

namespace capstan::gitops::git {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// Runs a shell command; returns its stdout+stderr, failing the test on a non-zero exit.
std::string sh(const std::string& cmd) {
  std::string out;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) {
    ADD_FAILURE() << "popen failed: " << cmd;
    return out;
  }
  char buf[4096];
  while (size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int status = ::pclose(p);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd << "\n" << out;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string quote(const fs::path& p) {
  std::string q = "'";
  q += p.string();
  q += '\'';
  return q;
}

// A working repository on branch main, driven by the git CLI.
class Source {
 public:
  explicit Source(fs::path dir) : dir_(std::move(dir)) {
    fs::create_directories(dir_);
    git("init -q -b main");
  }
  const fs::path& dir() const { return dir_; }
  std::string git(const std::string& args) const {
    return sh("git -C " + quote(dir_) +
              " -c user.name=t -c user.email=t@t -c commit.gpgsign=false -c tag.gpgsign=false " + args);
  }
  void write(const std::string& rel, const std::string& content) const {
    fs::create_directories((dir_ / rel).parent_path());
    std::ofstream(dir_ / rel, std::ios::binary) << content;
  }
  std::string commit(const std::string& message) const {
    git("add -A");
    git("commit -q --allow-empty -m " + quote(message));
    return git("rev-parse HEAD");
  }

 private:
  fs::path dir_;
};

class MirrorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "capstan-gitops-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    tmp_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }
  // A source with two commits: c1 (a.yaml, nested dirs) then c2 (a.yaml changed).
  Source make_source(const std::string& name = "src") {
    Source s(tmp_ / name);
    s.write("a.yaml", "a: 1\n");
    s.write("sub/b.yaml", "b: 1\n");
    s.write("sub/deep/c.yaml", "c: 1\n");
    s.write("other/d.yaml", "d: 1\n");
    c1_ = s.commit("first commit\n\nwith a body");
    s.write("a.yaml", "a: 2\n");
    c2_ = s.commit("second commit");
    return s;
  }
  std::string url(const Source& s) const { return s.dir().string(); }

  fs::path tmp_;
  std::string c1_, c2_;
};

const Ref kMain{.branch = "main"};

TEST_F(MirrorsTest, BranchResolvesWithFluxRevision) {
  Source src = make_source();
  Mirrors m(tmp_ / "cache");
  Resolved r = m.sync(url(src), kMain, 5s);
  EXPECT_EQ(r.commit, c2_);
  EXPECT_EQ(r.revision, "main@sha1:" + c2_);
  EXPECT_EQ(r.message, "second commit");
  EXPECT_TRUE(r.fetched);
  EXPECT_TRUE(m.has_commit(url(src), c2_));
  EXPECT_TRUE(m.has_commit(url(src), c1_));  // history came along
  EXPECT_FALSE(m.has_commit(url(src), std::string(40, 'a')));
  EXPECT_FALSE(m.has_commit("/nowhere/else", c2_));

  fs::path mirror = m.mirror_path(url(src));
  EXPECT_EQ(mirror.parent_path(), tmp_ / "cache");
  EXPECT_EQ(mirror.filename().string().size(), 16u + 4u);
  EXPECT_TRUE(fs::exists(mirror / "HEAD"));
  // The fetch wrote the mirror's own branch.
  EXPECT_EQ(sh("git --git-dir=" + quote(mirror) + " rev-parse refs/heads/main"), c2_);
}

TEST_F(MirrorsTest, CollectDeletesTheMirrorsOfUrlsNoLongerReferenced) {
  Source a = make_source("a"), b = make_source("b");
  {
    // A mirror left by an earlier run of the manager, whose repository is gone since.
    Mirrors earlier(tmp_ / "cache");
    Source gone = make_source("gone");
    earlier.sync(url(gone), kMain, 5s);
  }
  Mirrors m(tmp_ / "cache");
  m.sync(url(a), kMain, 5s);
  m.sync(url(b), kMain, 5s);
  auto before = m.disk_usage();
  EXPECT_GT(before, 0u);
  EXPECT_EQ(m.collect({url(a)}), 2u) << "b's mirror and the earlier run's";
  EXPECT_TRUE(fs::exists(m.mirror_path(url(a)) / "HEAD"));
  EXPECT_FALSE(fs::exists(m.mirror_path(url(b))));
  EXPECT_LT(m.disk_usage(), before);
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp_ / "cache"), fs::directory_iterator()), 1);
  // b referenced again: fetched from scratch.
  EXPECT_TRUE(m.sync(url(b), kMain, 5s).fetched);
  EXPECT_EQ(m.collect({url(a), url(b)}), 0u);
}

TEST_F(MirrorsTest, UnchangedBranchIsNotFetchedAgain) {
  Source src = make_source();
  Mirrors m(tmp_ / "cache");
  EXPECT_TRUE(m.sync(url(src), kMain, 5s).fetched);
  Resolved again = m.sync(url(src), kMain, 5s);
  EXPECT_FALSE(again.fetched);
  EXPECT_EQ(again.commit, c2_);
  EXPECT_EQ(again.message, "second commit");

  // A fresh Mirrors on the same root reuses the mirror on disk.
  Mirrors reopened(tmp_ / "cache");
  EXPECT_FALSE(reopened.sync(url(src), kMain, 5s).fetched);

  // Until the mirror is removed.
  reopened.remove(url(src));
  EXPECT_FALSE(fs::exists(reopened.mirror_path(url(src))));
  EXPECT_FALSE(reopened.has_commit(url(src), c2_));
  EXPECT_TRUE(reopened.sync(url(src), kMain, 5s).fetched);
  reopened.remove("/never/synced");
}

TEST_F(MirrorsTest, NewCommitIsFetched) {
  Source src = make_source();
  Mirrors m(tmp_ / "cache");
  m.sync(url(src), kMain, 5s);
  src.write("sub/b.yaml", "b: 2\n");
  std::string c3 = src.commit("third");
  Resolved r = m.sync(url(src), kMain, 5s);
  EXPECT_TRUE(r.fetched);
  EXPECT_EQ(r.commit, c3);
  EXPECT_EQ(m.files(url(src), c3, "sub").at("b.yaml"), "b: 2\n");

  // A force-push backwards resolves to the older commit without fetching.
  src.git("reset -q --hard " + c1_);
  Resolved back = m.sync(url(src), kMain, 5s);
  EXPECT_EQ(back.commit, c1_);
  EXPECT_FALSE(back.fetched);
}

TEST_F(MirrorsTest, TagRefs) {
  Source src = make_source();
  src.git("tag -a v1 -m release " + c1_);  // annotated: resolved through its peeled commit
  src.git("tag v2");                       // lightweight, at c2
  Mirrors m(tmp_ / "cache");
  Resolved v1 = m.sync(url(src), Ref{.tag = "v1"}, 5s);
  EXPECT_EQ(v1.commit, c1_);
  EXPECT_EQ(v1.revision, "v1@sha1:" + c1_);
  EXPECT_EQ(v1.message, "first commit");
  EXPECT_TRUE(v1.fetched);
  EXPECT_FALSE(m.sync(url(src), Ref{.tag = "v1"}, 5s).fetched);
  // Only that ref was written (libgit2's local transport sends more objects than asked for, so
  // "just that ref's history" is checked over git-daemon instead).
  fs::path mirror = m.mirror_path(url(src));
  EXPECT_EQ(sh("git --git-dir=" + quote(mirror) + " for-each-ref --format='%(refname)'"), "refs/tags/v1");

  Resolved v2 = m.sync(url(src), Ref{.branch = "ignored", .tag = "v2"}, 5s);  // tag beats branch
  EXPECT_EQ(v2.revision, "v2@sha1:" + c2_);

  EXPECT_THROW(m.sync(url(src), Ref{.tag = "v9"}, 5s), GitError);
}

TEST_F(MirrorsTest, SemverRefsTakeTheHighestTagInTheRange) {
  Source src = make_source();
  src.git("tag -a v1.0.0 -m release " + c1_);  // annotated
  src.git("tag v1.2.0 " + c2_);
  src.git("tag v2.0.0-rc.1 " + c1_);
  src.git("tag not-a-version " + c2_);
  Mirrors m(tmp_ / "cache");
  Resolved one = m.sync(url(src), Ref{.tag = "ignored", .semver = ">=1.0.0 <2.0.0"}, 5s);  // semver beats tag
  EXPECT_EQ(one.revision, "v1.2.0@sha1:" + c2_);
  EXPECT_EQ(m.sync(url(src), Ref{.semver = "~1.0"}, 5s).revision, "v1.0.0@sha1:" + c1_);
  EXPECT_EQ(m.sync(url(src), Ref{.semver = ">=2.0.0-0"}, 5s).revision, "v2.0.0-rc.1@sha1:" + c1_);  // pre-releases when asked
  try {
    m.sync(url(src), Ref{.semver = ">=3"}, 5s);
    FAIL();
  } catch (const GitError& e) {
    EXPECT_NE(std::string(e.what()).find("matches semver range \">=3\""), std::string::npos) << e.what();
  }
  EXPECT_THROW(m.sync(url(src), Ref{.semver = ">=x.y"}, 5s), GitError);
}

TEST_F(MirrorsTest, CommitRef) {
  Source src = make_source();
  src.git("checkout -q -b side " + c1_);
  src.write("side.yaml", "s: 1\n");
  std::string side = src.commit("on a side branch");
  src.git("checkout -q main");

  Mirrors m(tmp_ / "cache");
  Resolved r = m.sync(url(src), Ref{.branch = "", .tag = "v1", .commit = side}, 5s);  // commit beats all
  EXPECT_EQ(r.commit, side);
  EXPECT_EQ(r.revision, "sha1:" + side);
  EXPECT_EQ(r.message, "on a side branch");
  EXPECT_TRUE(r.fetched);
  EXPECT_FALSE(m.sync(url(src), Ref{.commit = side}, 5s).fetched);

  // Upper case is accepted; with a branch the revision names it.
  std::string upper = c1_;
  for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  Resolved b = m.sync(url(src), Ref{.branch = "main", .commit = upper}, 5s);
  EXPECT_EQ(b.revision, "main@sha1:" + c1_);
  EXPECT_FALSE(b.fetched);

  std::string missing(40, 'e');
  try {
    m.sync(url(src), Ref{.commit = missing}, 5s);
    FAIL() << "expected GitError";
  } catch (const GitError& e) {
    EXPECT_NE(std::string(e.what()).find("commit " + missing + " not found in " + url(src)), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(m.sync(url(src), Ref{.commit = "abc123"}, 5s), GitError);
}

TEST_F(MirrorsTest, NameRef) {
  Source src = make_source();
  src.git("update-ref refs/pull/420/head " + c1_);
  Mirrors m(tmp_ / "cache");
  Resolved main = m.sync(url(src), Ref{.branch = "x", .tag = "y", .name = "refs/heads/main"}, 5s);
  EXPECT_EQ(main.revision, "refs/heads/main@sha1:" + c2_);
  Resolved pr = m.sync(url(src), Ref{.name = "refs/pull/420/head"}, 5s);
  EXPECT_EQ(pr.revision, "refs/pull/420/head@sha1:" + c1_);
  EXPECT_FALSE(pr.fetched);  // c1 came with main
  EXPECT_THROW(m.sync(url(src), Ref{.name = "main"}, 5s), GitError);  // not a full ref
}

TEST_F(MirrorsTest, UnknownAndInvalidRefs) {
  Source src = make_source();
  Mirrors m(tmp_ / "cache");
  try {
    m.sync(url(src), Ref{.branch = "nope"}, 5s);
    FAIL() << "expected GitError";
  } catch (const GitError& e) {
    EXPECT_EQ(std::string(e.what()), "reference refs/heads/nope not found at " + url(src));
  }
  try {
    m.sync(url(src), Ref{}, 5s);  // Flux's default branch
    FAIL() << "expected GitError";
  } catch (const GitError& e) {
    EXPECT_NE(std::string(e.what()).find("refs/heads/master"), std::string::npos) << e.what();
  }
  // Names that would change the refspec are refused before any network traffic.
  for (const char* bad : {"main:refs/heads/x", "a..b", "-x ", "a b"})
    EXPECT_THROW(m.sync(url(src), Ref{.branch = bad}, 5s), GitError) << bad;
  try {
    m.sync((tmp_ / "no-such-repo").string(), kMain, 5s);
    FAIL() << "expected GitError";
  } catch (const GitError& e) {
    EXPECT_NE(std::string(e.what()).find("no repository at this path"), std::string::npos) << e.what();
  }
  try {
    m.sync("file://" + (tmp_ / "no-such-repo").string(), kMain, 5s);
    FAIL() << "expected GitError";
  } catch (const GitError& e) {
    EXPECT_NE(std::string(e.what()).find("git ls-remote file://"), std::string::npos) << e.what();
  }
}

TEST_F(MirrorsTest, FileUrl) {
  Source src = make_source();
  Mirrors m(tmp_ / "cache");
  std::string file_url = "file://" + src.dir().string();
  Resolved r = m.sync(file_url, kMain, 5s);
  EXPECT_EQ(r.commit, c2_);
  EXPECT_EQ(m.files(file_url, r.commit, "").size(), 4u);
  EXPECT_NE(m.mirror_path(file_url), m.mirror_path(url(src)));  // one mirror per URL spelling
}

// What the ignore rules leave out is not read: the defaults, the .sourceignore files above and
// below the path, and spec.ignore (which can bring a file back).
TEST_F(MirrorsTest, FilesLeaveOutWhatTheIgnoreRulesExclude) {
  Source src(tmp_ / "ignored");
  src.write(".sourceignore", "*.md\n");
  src.write("README.md", "docs\n");
  src.write(".github/workflows/ci.yaml", "on: push\n");
  src.write("apps/.sourceignore", "drafts/\n");
  src.write("apps/web.yaml", "web: 1\n");
  src.write("apps/NOTES.md", "root rules apply below\n");
  src.write("apps/drafts/wip.yaml", "wip: 1\n");
  src.write("apps/logo.png", "png\n");
  const std::string c = src.commit("ignored files");
  Mirrors m(tmp_ / "cache");
  m.sync(url(src), kMain, 5s);

  EXPECT_EQ(m.files(url(src), c, ""), (std::map<std::string, std::string>{
                                           {".sourceignore", "*.md\n"}, {"apps/.sourceignore", "drafts/\n"}, {"apps/web.yaml", "web: 1\n"}}));
  EXPECT_EQ(m.files(url(src), c, "apps"),
            (std::map<std::string, std::string>{{".sourceignore", "drafts/\n"}, {"web.yaml", "web: 1\n"}}));
  EXPECT_EQ(m.files(url(src), c, "apps", {}, std::string("!drafts/\n!*.png\n/apps/web.yaml\n")),
            (std::map<std::string, std::string>{
                {".sourceignore", "drafts/\n"}, {"drafts/wip.yaml", "wip: 1\n"}, {"logo.png", "png\n"}}));
  // An excluded directory's files do not count against the limits.
  src.write("apps/drafts/big.yaml", std::string(2000, 'x'));
  const std::string c2 = src.commit("big draft");
  m.sync(url(src), kMain, 5s);
  Limits small;
  small.max_file_bytes = 1000;
  EXPECT_EQ(m.files(url(src), c2, "apps", small).count("web.yaml"), 1u);
}

TEST_F(MirrorsTest, FilesOfRootAndSubdirectories) {
  Source src = make_source();
  Mirrors m(tmp_ / "cache");
  m.sync(url(src), kMain, 5s);

  std::map<std::string, std::string> want_root{
      {"a.yaml", "a: 2\n"}, {"other/d.yaml", "d: 1\n"}, {"sub/b.yaml", "b: 1\n"}, {"sub/deep/c.yaml", "c: 1\n"}};
  for (const char* root : {"", ".", "./", "/"}) EXPECT_EQ(m.files(url(src), c2_, root), want_root) << root;

  std::map<std::string, std::string> want_sub{{"b.yaml", "b: 1\n"}, {"deep/c.yaml", "c: 1\n"}};
  for (const char* sub : {"sub", "./sub/", "sub/", "./sub", "other/../sub"})
    EXPECT_EQ(m.files(url(src), c2_, sub), want_sub) << sub;
  EXPECT_EQ(m.files(url(src), c2_, "./sub/deep"), (std::map<std::string, std::string>{{"c.yaml", "c: 1\n"}}));
  EXPECT_EQ(m.files(url(src), c1_, "").at("a.yaml"), "a: 1\n");  // older commits stay readable

  for (const char* out : {"..", "sub/../../other", "/../a"}) {
    try {
      m.files(url(src), c2_, out);
      ADD_FAILURE() << "expected GitError for " << out;
    } catch (const GitError& e) {
      EXPECT_EQ(std::string(e.what()), "path " + std::string(out) + " leaves the repository");
    }
  }

  try {
    m.files(url(src), c2_, "./missing");
    FAIL() << "expected GitError";
  } catch (const GitError& e) {
    EXPECT_EQ(std::string(e.what()), "path ./missing not found in sha1:" + c2_);
  }
  try {
    m.files(url(src), c2_, "a.yaml");
    FAIL() << "expected GitError";
  } catch (const GitError& e) {
    EXPECT_NE(std::string(e.what()).find("path a.yaml not found in sha1:" + c2_), std::string::npos) << e.what();
  }
  EXPECT_THROW(m.files(url(src), std::string(40, 'b'), ""), GitError);   // not local
  EXPECT_THROW(m.files("/never/synced", c2_, ""), GitError);
}

TEST_F(MirrorsTest, FilesSkipsSymlinksAndSubmodules) {
  Source src(tmp_ / "src");
  src.write("deploy/app.yaml", "kind: App\n");
  src.write("deploy/run.sh", "#!/bin/sh\n");
  fs::permissions(src.dir() / "deploy/run.sh", fs::perms::owner_exec, fs::perm_options::add);
  fs::create_symlink("app.yaml", src.dir() / "deploy/link.yaml");
  src.git("add -A");
  // A gitlink, as `git submodule add` would record it.
  src.git("update-index --add --cacheinfo 160000," + std::string(40, '1') + ",deploy/vendored");
  std::string c = src.commit("mixed entries");
  Mirrors m(tmp_ / "cache");
  m.sync(url(src), kMain, 5s);
  EXPECT_EQ(m.files(url(src), c, "deploy"),
            (std::map<std::string, std::string>{{"app.yaml", "kind: App\n"}, {"run.sh", "#!/bin/sh\n"}}));
}

TEST_F(MirrorsTest, FilesLimits) {
  Source src = make_source();
  Mirrors m(tmp_ / "cache");
  m.sync(url(src), kMain, 5s);
  auto error_of = [&](const Limits& limits) -> std::string {
    try {
      m.files(url(src), c2_, "", limits);
    } catch (const GitError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(error_of(Limits{.max_file_bytes = 4}).find("over the max_file_bytes limit of 4"), std::string::npos)
      << error_of(Limits{.max_file_bytes = 4});
  EXPECT_NE(error_of(Limits{.max_total_bytes = 15}).find("max_total_bytes"), std::string::npos);
  EXPECT_NE(error_of(Limits{.max_files = 3}).find("max_files"), std::string::npos);
  EXPECT_EQ(m.files(url(src), c2_, "", Limits{.max_file_bytes = 5, .max_total_bytes = 20, .max_files = 4}).size(), 4u);
}

TEST_F(MirrorsTest, ConcurrentSyncOfOneUrl) {
  Source src = make_source();
  const std::string head = c2_;
  Source other = make_source("other");  // (resets c1_ and c2_)
  Mirrors m(tmp_ / "cache");
  std::atomic<int> fetched{0}, failures{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      try {
        Resolved r = m.sync(url(src), kMain, 5s);
        if (r.fetched) ++fetched;
        if (r.commit != head || m.files(url(src), r.commit, "sub").size() != 2) ++failures;
        if (i % 2 == 0) m.sync(url(other), kMain, 5s);  // another URL in parallel
      } catch (const std::exception& e) {
        ++failures;
        ADD_FAILURE() << e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(fetched.load(), 1);  // serialized: the others found the commit local
}

// Binds 127.0.0.1:0 and returns the port the kernel picked (the socket stays open when keep).
int loopback_port(int* keep = nullptr) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    if (fd >= 0) ::close(fd);
    return -1;
  }
  if (keep) {
    ::listen(fd, 16);
    *keep = fd;
  } else {
    ::close(fd);
  }
  return ntohs(addr.sin_port);
}

bool accepts(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool ok = fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  if (fd >= 0) ::close(fd);
  return ok;
}

// git-daemon serving `base` on a free loopback port; stopped by its own PID.
class GitDaemon {
 public:
  explicit GitDaemon(const fs::path& base) {
    auto deadline = std::chrono::steady_clock::now() + 10s;
    for (int attempt = 0; attempt < 5 && std::chrono::steady_clock::now() < deadline; ++attempt) {
      port_ = loopback_port();
      if (port_ <= 0) continue;
      std::vector<std::string> args{"/usr/lib/git-core/git-daemon", "--reuseaddr", "--base-path=" + base.string(),
                                    "--export-all", "--listen=127.0.0.1", "--port=" + std::to_string(port_)};
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      if (::posix_spawn(&pid_, argv[0], nullptr, nullptr, argv.data(), environ) != 0) {
        pid_ = -1;
        continue;
      }
      while (std::chrono::steady_clock::now() < deadline) {
        if (accepts(port_)) return;  // (the daemon logs "remote end hung up" for this probe)
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {  // exited: the port was taken; retry
          pid_ = -1;
          break;
        }
        std::this_thread::sleep_for(20ms);
      }
      stop();
    }
  }
  ~GitDaemon() { stop(); }
  bool running() const { return pid_ > 0; }
  int port() const { return port_; }

 private:
  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  pid_t pid_ = -1;
  int port_ = -1;
};

TEST_F(MirrorsTest, GitDaemon) {
  Source src = make_source();
  src.git("tag -a v1 -m release " + c1_);
  fs::create_directories(tmp_ / "served");
  sh("git clone -q --bare " + quote(src.dir()) + " " + quote(tmp_ / "served/repo.git"));
  GitDaemon daemon(tmp_ / "served");
  ASSERT_TRUE(daemon.running()) << "git-daemon did not start";
  std::string url = "git://127.0.0.1:" + std::to_string(daemon.port()) + "/repo.git";
  Mirrors m(tmp_ / "cache");
  Resolved v1 = m.sync(url, Ref{.tag = "v1"}, 5s);
  EXPECT_EQ(v1.revision, "v1@sha1:" + c1_);
  EXPECT_TRUE(v1.fetched);
  EXPECT_FALSE(m.has_commit(url, c2_));  // just that ref's history came
  Resolved r = m.sync(url, kMain, 5s);
  EXPECT_EQ(r.revision, "main@sha1:" + c2_);
  EXPECT_TRUE(r.fetched);
  EXPECT_FALSE(m.sync(url, kMain, 5s).fetched);
  EXPECT_EQ(m.files(url, r.commit, "./sub/").size(), 2u);
  EXPECT_EQ(m.sync(url, Ref{.commit = c1_}, 5s).revision, "sha1:" + c1_);
  EXPECT_THROW(m.sync(url, Ref{.branch = "nope"}, 5s), GitError);
}

TEST_F(MirrorsTest, SilentServerTimesOut) {
  int listener = -1;
  int port = loopback_port(&listener);  // listens, never accepts, never answers
  ASSERT_GT(port, 0);
  Mirrors m(tmp_ / "cache");
  for (std::string scheme : {"git", "http"}) {
    auto start = std::chrono::steady_clock::now();
    try {
      m.sync(scheme + "://127.0.0.1:" + std::to_string(port) + "/repo.git", kMain, 300ms);
      ADD_FAILURE() << "expected a timeout over " << scheme;
    } catch (const GitError& e) {
      EXPECT_NE(std::string(e.what()).find("timed out after 300ms"), std::string::npos) << e.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, 3s) << scheme;
  }
  ::close(listener);
}

bool send_all(int fd, const std::string& data) {
  for (size_t done = 0; done < data.size();) {
    ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

std::string pkt_line(const std::string& payload) {
  char len[5];
  std::snprintf(len, sizeof len, "%04zx", payload.size() + 4);
  return std::string(len) + payload;
}

// A git:// server that advertises refs/heads/main, then answers the fetch with an endless trickle
// of progress messages and never a pack: only the progress callbacks can end the transfer.
TEST_F(MirrorsTest, EndlessTransferIsCancelledAtTheDeadline) {
  int listener = -1;
  int port = loopback_port(&listener);
  ASSERT_GT(port, 0);
  std::atomic<bool> stop{false};
  std::thread server([&] {
    pollfd p{listener, POLLIN, 0};
    if (::poll(&p, 1, 5000) != 1) return;
    int fd = ::accept(listener, nullptr, nullptr);
    if (fd < 0) return;
    char buf[4096];
    std::string got;
    if (::recv(fd, buf, sizeof buf, 0) > 0) {  // "git-upload-pack /repo.git\0host=...\0"
      std::string advert = std::string(40, '1') + " refs/heads/main" + std::string(1, '\0') + "side-band-64k\n";
      send_all(fd, pkt_line(advert) + "0000");
      while (got.find("done") == std::string::npos) {  // wants, then "done" (the mirror has nothing)
        ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        got.append(buf, static_cast<size_t>(n));
      }
      send_all(fd, pkt_line("NAK\n"));
      auto give_up = std::chrono::steady_clock::now() + 5s;
      for (int i = 0; !stop && std::chrono::steady_clock::now() < give_up; ++i)
        if (!send_all(fd, pkt_line("\x02" "Counting objects: " + std::to_string(i) + "\r"))) break;
    }
    ::close(fd);
  });
  Mirrors m(tmp_ / "cache");
  auto start = std::chrono::steady_clock::now();
  try {
    m.sync("git://127.0.0.1:" + std::to_string(port) + "/repo.git", kMain, 400ms);
    ADD_FAILURE() << "expected a timeout";
  } catch (const GitError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("git fetch"), std::string::npos) << msg;
    EXPECT_NE(msg.find("timed out after 400ms"), std::string::npos) << msg;
    // Usually the progress callback's doing; the socket deadline when the reader was waiting.
    EXPECT_TRUE(msg.find("transfer cancelled at the deadline") != std::string::npos ||
                msg.find("timed out reading") != std::string::npos)
        << msg;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
  stop = true;
  server.join();
  ::close(listener);
}

TEST_F(MirrorsTest, CredentialsNeverInErrors) {
  EXPECT_EQ(redact_url("https://user:s3cretpass@example.com/org/repo.git"), "https://example.com/org/repo.git");
  EXPECT_EQ(redact_url("https://token@example.com:8443/r?x=a@b"), "https://example.com:8443/r?x=a@b");
  EXPECT_EQ(redact_url("http://example.com/a@b"), "http://example.com/a@b");
  EXPECT_EQ(redact_url("/srv/git/repo"), "/srv/git/repo");

  int port = loopback_port();  // closed: the connection is refused
  ASSERT_GT(port, 0);
  Mirrors m(tmp_ / "cache");
  try {
    m.sync("http://user:s3cretpass@127.0.0.1:" + std::to_string(port) + "/repo.git", kMain, 2s);
    FAIL() << "expected GitError";
  } catch (const GitError& e) {
    std::string msg = e.what();
    EXPECT_EQ(msg.find("s3cretpass"), std::string::npos) << msg;
    EXPECT_NE(msg.find("http://127.0.0.1:" + std::to_string(port) + "/repo.git"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace capstan::gitops::git
