// One call to the Accounts service's People with a fresh context (the gateway's
// service token and the deadline), shared by the two stores that call it:
// people_client.cc (people, sessions, seats) and bots.cc (a person's bots).
#pragma once

#include <grpcpp/client_context.h>
#include <grpcpp/support/status.h>

#include "metropolis/v1/people.grpc.pb.h"
#include "services/gateway/backends.h"

namespace metropolis::gateway {

template <typename Request, typename Response>
grpc::Status CallPeople(Backends* backends,
                        grpc::Status (v1::People::Stub::*method)(grpc::ClientContext*, const Request&, Response*),
                        const Request& request, Response* response) {
  auto context = backends->AccountsContext();
  return (backends->people().*method)(context.get(), request, response);
}

}  // namespace metropolis::gateway
