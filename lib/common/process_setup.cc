#include "lib/common/process_setup.h"

#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>

namespace metropolis::services {

void IgnoreBrokenPipes() { std::signal(SIGPIPE, SIG_IGN); }

void RaiseOpenFileLimit() {
  if (rlimit files; getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
  }
}

bool PrivateTempFile::Write(const std::string& name, const std::string& text, std::string* error) {
  Remove();
  const char* dir = std::getenv("TMPDIR");
  std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/" + name + ".XXXXXX";
  const int fd = ::mkstemp(pattern.data());  // mode 0600
  if (fd < 0) {
    *error = "cannot create a file in " + pattern.substr(0, pattern.rfind('/'));
    return false;
  }
  path_ = pattern;
  const bool written = ::write(fd, text.data(), text.size()) == ssize_t(text.size());
  ::close(fd);
  if (!written) *error = "cannot write " + path_;
  return written;
}

void PrivateTempFile::Remove() {
  if (!path_.empty()) ::unlink(path_.c_str());
  path_.clear();
}

}  // namespace metropolis::services
