'use strict';
// The public API (proto/metropolis/v1) loaded at run time with
// @grpc/proto-loader: nothing is generated. Action codes are fixed64, read as
// decimal strings (`longs: String`: a JavaScript number would lose bits);
// enums come as names.

const fs = require('node:fs');
const path = require('node:path');

function requirePackage(name) {
  try {
    return require(name);
  } catch (err) {
    if (err.code !== 'MODULE_NOT_FOUND') throw err;
    throw new Error(`${name} is not installed: run scripts/setup.sh, or npm ci in botkits/node (${err.message})`);
  }
}
const grpc = requirePackage('@grpc/grpc-js');
const protoLoader = requirePackage('@grpc/proto-loader');

const DEFAULT_PROTO_DIR = path.join(__dirname, '..', '..', '..', 'proto');

// The channel settings of the C++ kit (lib/common/credentials.cc): keepalive
// pings find a peer cut off by the network, and gRPC's own reconnect backoff
// stays short so that a host back after a restart is reachable at once.
const CHANNEL_OPTIONS = {
  'grpc.keepalive_time_ms': 10000,
  'grpc.keepalive_timeout_ms': 5000,
  'grpc.keepalive_permit_without_calls': 0,
  'grpc.initial_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 1000,
};

// Keeps the serialized bytes of welcomes and decisions next to the decoded
// message: the engine addon reads the view from them with the engine's own
// conversion (lib/protocol), not from the decoded object.
function keepRawBytes(method) {
  const decode = method.responseDeserialize;
  return {
    ...method,
    responseDeserialize: (bytes) => {
      const message = decode(bytes);
      if (message.msg === 'welcome' || message.msg === 'decision') {
        Object.defineProperty(message, 'raw', { value: Buffer.from(bytes), enumerable: false });
      }
      return message;
    },
  };
}

let cached = null;

// Loads the API from `protoDir` (default $METROPOLIS_PROTO_DIR, else the tree's
// proto/). Returns the client constructors and the enums' numbers.
function loadApi(protoDir = process.env.METROPOLIS_PROTO_DIR || DEFAULT_PROTO_DIR) {
  if (cached && cached.protoDir === protoDir) return cached;
  const files = ['gamehost', 'matchmaker', 'tournaments'].map((f) => `metropolis/v1/${f}.proto`);
  for (const f of files) {
    if (!fs.existsSync(path.join(protoDir, f))) throw new Error(`${path.join(protoDir, f)} not found (--proto DIR, or METROPOLIS_PROTO_DIR)`);
  }
  const definition = protoLoader.loadSync(files, {
    includeDirs: [protoDir], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true,
  });
  const service = { ...definition['metropolis.v1.GameHost'] };
  service.Play = keepRawBytes(service.Play);
  const enumNumbers = (name) => Object.fromEntries(definition[name].type.value.map((v) => [v.name, v.number]));
  cached = {
    protoDir,
    definition,
    GameHost: grpc.makeGenericClientConstructor(service, 'GameHost'),
    Matchmaker: grpc.makeGenericClientConstructor(definition['metropolis.v1.Matchmaker'], 'Matchmaker'),
    Tournaments: grpc.makeGenericClientConstructor(definition['metropolis.v1.Tournaments'], 'Tournaments'),
    eventTypeNumber: enumNumbers('metropolis.v1.EventType'),
    endReasonNumber: enumNumbers('metropolis.v1.EndReason'),
  };
  return cached;
}

// Plaintext, or TLS verified against the PEM CA bundle in `caFile`.
function credentials(caFile) {
  return caFile ? grpc.credentials.createSsl(fs.readFileSync(caFile)) : grpc.credentials.createInsecure();
}

// "UNAVAILABLE" for 14.
function statusName(code) {
  return Object.keys(grpc.status).find((k) => grpc.status[k] === code) ?? String(code);
}

// An error carrying a gRPC status code, like grpc-js's own.
class StatusError extends Error {
  constructor(code, details) {
    super(`${statusName(code)}: ${details}`);
    this.code = code;
    this.details = details;
  }
}

function bearer(token) {
  const metadata = new grpc.Metadata();
  metadata.set('authorization', `Bearer ${token}`);
  return metadata;
}

module.exports = { loadApi, credentials, statusName, StatusError, bearer, CHANNEL_OPTIONS, grpc };
