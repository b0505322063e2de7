// What a server process sets up beside its signals (server_main.h) when it holds
// many sockets of its own, as the gateway's HTTP server does: broken pipes that do
// not kill it, and room for a descriptor per client.
#pragma once

namespace metropolis::services {

// A client that leaves mid-write must not kill the process: SIGPIPE is ignored
// and the write fails instead.
void IgnoreBrokenPipes();

// Raises the soft limit of open descriptors to the hard one: a soft limit of 1024
// (a common default) would stop a server that holds a socket per client short.
void RaiseOpenFileLimit();

}  // namespace metropolis::services
