#include "lib/common/process_setup.h"

#include <sys/resource.h>

#include <csignal>

namespace metropolis::services {

void IgnoreBrokenPipes() { std::signal(SIGPIPE, SIG_IGN); }

void RaiseOpenFileLimit() {
  if (rlimit files; getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
  }
}

}  // namespace metropolis::services
