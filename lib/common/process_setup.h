// What a server process sets up beside its signals (server_main.h) when it holds
// many sockets of its own, as the gateway's HTTP server does: broken pipes that do
// not kill it, room for a descriptor per client, and a private file for a library
// that reads its TLS key only from a path (civetweb).
#pragma once

#include <string>

namespace metropolis::services {

// A client that leaves mid-write must not kill the process: SIGPIPE is ignored
// and the write fails instead.
void IgnoreBrokenPipes();

// Raises the soft limit of open descriptors to the hard one: a soft limit of 1024
// (a common default) would stop a server that holds a socket per client short.
void RaiseOpenFileLimit();

// A file only this user can read, in $TMPDIR (or /tmp), removed by Remove() or at
// the latest on destruction.
class PrivateTempFile {
 public:
  PrivateTempFile() = default;
  ~PrivateTempFile() { Remove(); }
  PrivateTempFile(const PrivateTempFile&) = delete;
  PrivateTempFile& operator=(const PrivateTempFile&) = delete;

  // Creates the file, named `name`.XXXXXX, with `text`. False with *error
  // ("cannot create a file in /tmp", "cannot write /tmp/NAME.1a2B3c").
  bool Write(const std::string& name, const std::string& text, std::string* error);
  void Remove();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace metropolis::services
