#include "controllers/gitops/git/libgit2.h"

#include "controllers/gitops/git/mirrors.h"

#include <dlfcn.h>

#include <string>

#ifndef CAPSTAN_LIBGIT2_SONAME
#error "CAPSTAN_LIBGIT2_SONAME names the libgit2 the build compiled against (CMakeLists.txt sets it)"
#endif

namespace capstan::gitops::git {
namespace {

LibGit2 load() {
  void* handle = dlopen(CAPSTAN_LIBGIT2_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    throw GitError(std::string("loading ") + CAPSTAN_LIBGIT2_SONAME + ": " + (why ? why : "unknown error"));
  }
  LibGit2 api;
#define CAPSTAN_LIBGIT2_RESOLVE(name)                                                                   \
  api.name = reinterpret_cast<decltype(api.name)>(dlsym(handle, #name));                               \
  if (!api.name) throw GitError(std::string(CAPSTAN_LIBGIT2_SONAME) + " has no " #name);
  CAPSTAN_LIBGIT2_FUNCTIONS(CAPSTAN_LIBGIT2_RESOLVE)
#undef CAPSTAN_LIBGIT2_RESOLVE
  return api;  // the handle stays open for the life of the process
}

}  // namespace

const LibGit2& libgit2() {
  static const LibGit2 api = load();
  return api;
}

}  // namespace capstan::gitops::git
