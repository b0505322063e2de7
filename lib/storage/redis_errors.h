// The two ways a Redis command fails, apart from the client (redis.h), so that a
// store's interface can name what its Redis implementation throws without
// bringing the client into every header that includes it.
#pragma once

#include <stdexcept>

namespace metropolis::storage {

// The connection failed (refused, reset, timed out), or the server answered that it
// cannot take writes now (READONLY: a replica, e.g. a demoted primary after a
// failover; MASTERDOWN; LOADING; MISCONF; NOREPLICAS: a primary that lost its
// replicas, perhaps cut off from the sentinels that are promoting one): either way not this command's fault, and
// the connection is dropped so that the next one finds the primary again. Other
// error replies ("WRONGTYPE ...") are replies, not exceptions, and keep the connection.
class RedisUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An error reply from a server that could take the command: a script that
// failed, a refused permission (NOPERM), a key of the wrong type. A retry would
// get the same answer, so it is not RedisUnavailable (RedisErrorStatus makes it
// INTERNAL, not the retryable UNAVAILABLE).
class RedisCommandError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace metropolis::storage
