// libgit2, loaded when the first Mirrors is made (dlopen) rather than at process start: a
// manager that follows no Git repository never maps libgit2 and its dependencies (mbedTLS,
// libssh2, Kerberos, PCRE2: ~2 MB of resident pages in every idle manager otherwise).
// Every function mirrors.cpp calls is resolved once, by name, from the same libgit2 the build
// compiled against (its soname); a missing library or symbol is a GitError saying which.
#pragma once

#include <git2.h>
#include <git2/sys/stream.h>

namespace capstan::gitops::git {

// X(name) for every libgit2 function Capstan calls.
#define CAPSTAN_LIBGIT2_FUNCTIONS(X) \
  X(git_blob_free) \
  X(git_blob_lookup) \
  X(git_blob_rawcontent) \
  X(git_blob_rawsize) \
  X(git_commit_free) \
  X(git_commit_id) \
  X(git_commit_lookup) \
  X(git_commit_message) \
  X(git_commit_tree) \
  X(git_credential_ssh_key_memory_new) \
  X(git_credential_userpass_plaintext_new) \
  X(git_credential_username_new) \
  X(git_error_last) \
  X(git_error_set_oom) \
  X(git_error_set_str) \
  X(git_fetch_options_init) \
  X(git_libgit2_init) \
  X(git_object_free) \
  X(git_object_lookup) \
  X(git_object_peel) \
  X(git_object_type) \
  X(git_object_type2string) \
  X(git_odb_free) \
  X(git_odb_read_header) \
  X(git_oid_fmt) \
  X(git_oid_fromstr) \
  X(git_proxy_options_init) \
  X(git_reference_name_is_valid) \
  X(git_remote_connect) \
  X(git_remote_create_options_init) \
  X(git_remote_create_with_opts) \
  X(git_remote_disconnect) \
  X(git_remote_fetch) \
  X(git_remote_free) \
  X(git_remote_init_callbacks) \
  X(git_remote_ls) \
  X(git_repository_free) \
  X(git_repository_init) \
  X(git_repository_odb) \
  X(git_repository_open_bare) \
  X(git_stream_register) \
  X(git_tree_entry_byindex) \
  X(git_tree_entry_byname) \
  X(git_tree_entry_bypath) \
  X(git_tree_entry_filemode) \
  X(git_tree_entry_free) \
  X(git_tree_entry_id) \
  X(git_tree_entry_name) \
  X(git_tree_entry_type) \
  X(git_tree_entrycount) \
  X(git_tree_free) \
  X(git_tree_lookup)

struct LibGit2 {
#define CAPSTAN_LIBGIT2_POINTER(name) decltype(&::name) name = nullptr;
  CAPSTAN_LIBGIT2_FUNCTIONS(CAPSTAN_LIBGIT2_POINTER)
#undef CAPSTAN_LIBGIT2_POINTER
};

// The loaded library (loaded and initialised on the first call; thread-safe).
const LibGit2& libgit2();

}  // namespace capstan::gitops::git
