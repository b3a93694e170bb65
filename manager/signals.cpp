#include "manager/signals.h"

#include <csignal>
#include <pthread.h>
#include <unistd.h>

namespace capstan::manager {
namespace {
sigset_t termination_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}
}  // namespace

void block_termination_signals() {
  sigset_t set = termination_set();
  sigaddset(&set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

int wait_for_termination() {
  sigset_t set = termination_set();
  int sig = 0;
  sigwait(&set, &sig);
  return sig;
}

void request_termination() { ::kill(::getpid(), SIGTERM); }

}  // namespace capstan::manager
