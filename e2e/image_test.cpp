// The Dockerfile's runtime stage is enough for the binary, checked without a container engine:
// every shared library the binary needs (`ldd`, and the sonames it dlopens, such as libgit2's)
// belongs to a package (`dpkg -S`) the runtime stage installs, and the binary starts
// (`capstan version`) from a directory holding only the libraries of those packages and of what
// apt installs with them, loaded by the dynamic loader from that directory alone.
#include "testing/cluster.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace capstan::e2e {
namespace {
namespace fs = std::filesystem;

// The packages of the runtime stage's `apt-get install`.
std::set<std::string> runtime_packages() {
  std::string dockerfile = read_file(source_dir() + "/Dockerfile");
  auto stage = dockerfile.find(" AS runtime");
  if (stage == std::string::npos) return {};
  auto install = dockerfile.find("apt-get install", stage);
  if (install == std::string::npos) return {};
  std::istringstream words(dockerfile.substr(install + 15, dockerfile.find("&&", install) - install - 15));
  std::set<std::string> out;
  for (std::string w; words >> w;)
    if (w[0] != '-' && w != "\\") out.insert(w);
  return out;
}

// soname -> path, for what the binary links (ldd) and the sonames it names as whole strings
// (what it dlopens).
std::map<std::string, std::string> needed_libraries(const std::string& binary) {
  std::map<std::string, std::string> out;
  auto ldd = run({"ldd", binary});
  std::regex line(R"(^\s*(\S+)(?: => (\S+))? \(0x)");
  std::istringstream in(ldd.out);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (!std::regex_search(l, m, line) || m[1] == "linux-vdso.so.1") continue;
    std::string path = m[2].matched ? m[2].str() : m[1].str();
    out[fs::path(path).filename().string()] = path;
  }
  std::ifstream bin(binary, std::ios::binary);
  std::regex soname(R"(^lib[A-Za-z0-9_+-]+\.so\.[0-9.]+$)");
  std::string s;
  for (char c; bin.get(c);) {
    if (c != '\0') {
      if (s.size() < 64) s += c;
      continue;
    }
    if (!out.contains(s) && std::regex_match(s, soname))
      for (const char* dir : {"/lib/x86_64-linux-gnu/", "/usr/lib/x86_64-linux-gnu/"})
        if (fs::exists(dir + s)) out[s] = dir + s;
    s.clear();
  }
  return out;
}

// The Debian package a file belongs to (usrmerge: /lib and /usr/lib are one).
std::string package_of(const std::string& path) {
  std::string real = fs::weakly_canonical(path).string();
  for (const auto& p : {path, real, real.rfind("/usr", 0) == 0 ? real.substr(4) : "/usr" + real,
                        path.rfind("/usr", 0) == 0 ? path.substr(4) : "/usr" + path}) {
    auto r = run({"dpkg", "-S", p});
    if (r.code == 0) return r.out.substr(0, r.out.find_first_of(":,"));
  }
  return "";
}

TEST(Image, EveryLibraryTheBinaryNeedsComesFromTheRuntimeStage) {
  auto packages = runtime_packages();
  ASSERT_FALSE(packages.empty()) << "no `apt-get install` in the Dockerfile's runtime stage";
  auto libs = needed_libraries(capstan_bin());
  ASSERT_GT(libs.size(), 3u);
  EXPECT_TRUE(libs.contains("libgit2.so.1.5") || std::any_of(libs.begin(), libs.end(), [](const auto& l) {
                return l.first.rfind("libgit2.so", 0) == 0;
              })) << "the dlopened libgit2 was not found in the binary";
  for (const auto& [soname, path] : libs) {
    std::string pkg = package_of(path);
    EXPECT_FALSE(pkg.empty()) << soname << " (" << path << ") belongs to no package";
    EXPECT_TRUE(packages.contains(pkg)) << soname << " comes from " << pkg << ", which the runtime stage does not install";
  }
}

// The runtime packages and what apt installs with them (their Depends, recursively).
std::set<std::string> with_dependencies(const std::set<std::string>& packages) {
  std::vector<std::string> args = {"apt-cache", "depends", "--recurse", "--installed", "--no-recommends", "--no-suggests",
                                   "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances"};
  args.insert(args.end(), packages.begin(), packages.end());
  auto r = run(args);
  std::set<std::string> out = packages;
  std::istringstream in(r.out);
  for (std::string l; std::getline(in, l);)
    if (!l.empty() && l[0] != ' ' && l[0] != '<') out.insert(l);
  return out;
}

TEST(Image, TheBinaryStartsFromOnlyTheRuntimeStagesLibraries) {
  TempDir dir("image");
  fs::path root = dir.path(), lib = root / "lib";
  fs::create_directories(lib);
  std::regex shared(R"(\.so(\.[0-9.]+)?$)");
  for (const auto& pkg : with_dependencies(runtime_packages())) {
    auto files = run({"dpkg", "-L", pkg});
    ASSERT_EQ(files.code, 0) << pkg << " is not installed here: " << files.err;
    std::istringstream in(files.out);
    for (std::string f; std::getline(in, f);)
      if (std::regex_search(f, shared) && fs::is_regular_file(f))
        fs::copy_file(f, lib / fs::path(f).filename(), fs::copy_options::overwrite_existing);
  }
  fs::copy_file(capstan_bin(), root / "capstan");
  ASSERT_TRUE(fs::exists(lib / "ld-linux-x86-64.so.2"));
  auto r = run({(lib / "ld-linux-x86-64.so.2").string(), "--inhibit-cache", "--library-path", lib.string(), (root / "capstan").string(),
                "version"},
               {{"LD_DEBUG", "libs"}});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("capstan ", 0), 0u) << r.out;
  std::regex init(R"(calling init: (\S+))");
  int loaded = 0;
  for (std::sregex_iterator it(r.err.begin(), r.err.end(), init), end; it != end; ++it, ++loaded)
    EXPECT_EQ((*it)[1].str().rfind(lib.string(), 0), 0u) << (*it)[1] << " was loaded from outside the runtime stage";
  EXPECT_GT(loaded, 3);
  // libgit2 (dlopened on first use) resolves its own dependencies there too.
  for (const auto& e : fs::directory_iterator(lib)) {
    if (e.path().filename().string().rfind("libgit2.so.", 0) != 0) continue;
    auto deps = run({(lib / "ld-linux-x86-64.so.2").string(), "--inhibit-cache", "--library-path", lib.string(), "--list", e.path().string()});
    EXPECT_EQ(deps.code, 0) << deps.out << deps.err;
    EXPECT_EQ(deps.out.find("not found"), std::string::npos) << deps.out;
    std::istringstream in(deps.out);
    for (std::string l; std::getline(in, l);)
      if (auto at = l.find("=> "); at != std::string::npos)
        EXPECT_EQ(l.find(lib.string()), at + 3) << "libgit2 needs a library from outside the runtime stage: " << l;
  }
}

}  // namespace
}  // namespace capstan::e2e
