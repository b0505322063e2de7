// Validates the rendered chart (the JSON that render/ writes beside the YAML stream):
// every object against the Kubernetes schemas of kubernetes-models (package.json pins
// the version), then across objects, the way a cluster would find the mistakes only
// at run time: selectors and labels, ports, environment variables and the ConfigMaps
// and Secrets they come from, probes, autoscalers, disruption budgets, Prometheus
// annotations, Helm hooks, and, given the programs' --help texts, every METROPOLIS_*
// variable against the flags of the program the container runs.
//
//   node validate.mjs --objects rendered.json [--help-dir DIR] [--mutate FIXTURE.json]
//
// --help-dir holds <program>.txt, the --help of each program (check.sh writes them
// from a build). --mutate applies a fixture's edits to the objects first (the
// negative tests: a broken selector must be found). Exit 0 when all is well, 1 with
// every problem listed otherwise.
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

function usage() {
  console.error("usage: node validate.mjs --objects FILE [--help-dir DIR] [--mutate FIXTURE.json]");
  process.exit(2);
}

const args = { objects: null, helpDir: null, mutate: null };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  const next = () => process.argv[++i] ?? usage();
  if (a === "--objects") args.objects = next();
  else if (a === "--help-dir") args.helpDir = next();
  else if (a === "--mutate") args.mutate = next();
  else usage();
}
if (!args.objects) usage();

const docs = JSON.parse(readFileSync(args.objects, "utf8"));
const problems = [];
const problem = (where, what) => problems.push(`${where}: ${what}`);
const id = (o) => `${o?.kind ?? "?"}/${o?.metadata?.name ?? "?"}`;

// --- Fixtures: edits that break the stream on purpose --------------------------------
// {"edits": [{"kind", "name", "path": [...], "value" | "delete": true}]}; a path
// element that is an object picks the array element whose fields equal it.
function applyEdits(fixture) {
  for (const edit of fixture.edits) {
    const doc = docs.find((d) => d.object.kind === edit.kind && d.object.metadata?.name === edit.name);
    if (!doc) throw new Error(`fixture: no ${edit.kind}/${edit.name} in the stream`);
    let node = doc.object;
    const steps = edit.path.slice(0, -1);
    let last = edit.path[edit.path.length - 1];
    for (const step of steps) {
      node = pick(node, step);
      if (node === undefined) throw new Error(`fixture: ${JSON.stringify(edit.path)} not in ${edit.kind}/${edit.name}`);
    }
    if (typeof last === "object") last = node.indexOf(pick(node, last));
    if (edit.delete) delete node[last];
    else node[last] = edit.value;
  }
}
function pick(node, step) {
  if (typeof step !== "object") return node?.[step];
  return Array.isArray(node) ? node.find((e) => Object.entries(step).every(([k, v]) => e?.[k] === v)) : undefined;
}
if (args.mutate) applyEdits(JSON.parse(readFileSync(args.mutate, "utf8")));

const objects = docs.map((d) => d.object);

// --- 1. Every object against its schema ---------------------------------------------
const modelsVersion = JSON.parse(readFileSync(require.resolve("kubernetes-models/package.json"), "utf8")).version;
const seen = new Set();
for (const o of objects) {
  if (!o || typeof o !== "object" || !o.apiVersion || !o.kind || !o.metadata?.name) {
    problem(id(o), "not an object with apiVersion, kind and metadata.name");
    continue;
  }
  const key = `${o.apiVersion} ${o.kind} ${o.metadata.name}`;
  if (seen.has(key)) problem(id(o), "defined twice");
  seen.add(key);
  const [group, version] = o.apiVersion.includes("/") ? o.apiVersion.split("/") : [null, o.apiVersion];
  const module = `kubernetes-models/${group ? group + "/" : ""}${version}/${o.kind}`;
  let Model;
  try {
    Model = (await import(module))[o.kind];
  } catch {
    problem(id(o), `no schema for ${o.apiVersion} ${o.kind} in kubernetes-models ${modelsVersion}`);
    continue;
  }
  try {
    new Model(o).validate();
  } catch (e) {
    const errors = e.errors ?? [{ instancePath: "", message: e.message }];
    for (const err of errors) problem(id(o), `schema: ${err.instancePath || "/"} ${err.message}`);
  }
}

// --- Lookups ----------------------------------------------------------------------------
const ofKind = (kind) => objects.filter((o) => o?.kind === kind);
const find = (kind, name) => objects.find((o) => o?.kind === kind && o.metadata?.name === name);
// The long-running workloads ("servers"): Deployments, and the game hosts' StatefulSet.
const servers = [...ofKind("Deployment"), ...ofKind("StatefulSet")];
const jobs = ofKind("Job");
const workloads = [...servers, ...jobs];
const podTemplate = (w) => w.spec?.template ?? {};
const podLabels = (w) => podTemplate(w).metadata?.labels ?? {};
const containersOf = (w) => [...(podTemplate(w).spec?.initContainers ?? []), ...(podTemplate(w).spec?.containers ?? [])];
const selects = (selector, labels) =>
  selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
const program = (c) => path.basename(c.command?.[0] ?? c.args?.[0] ?? "");
const annotations = (o) => o.metadata?.annotations ?? {};
const hookOf = (o) => annotations(o)["helm.sh/hook"];
const hookWeight = (o) => Number(annotations(o)["helm.sh/hook-weight"] ?? 0);
const secretKeys = (s) => new Set([...Object.keys(s.data ?? {}), ...Object.keys(s.stringData ?? {})]);
const DNS_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

for (const o of objects) {
  const name = o?.metadata?.name ?? "";
  const label = ["Service"].includes(o?.kind);
  if (label ? !DNS_LABEL.test(name) || name.length > 63 : !DNS_SUBDOMAIN.test(name) || name.length > 253)
    problem(id(o), `name "${name}" is not a valid ${label ? "DNS label" : "DNS subdomain"}`);
  for (const [k, v] of Object.entries(o?.metadata?.labels ?? {}))
    if (typeof v !== "string" || v.length > 63 || !/^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/.test(v))
      problem(id(o), `label ${k}: "${v}" is not a valid label value`);
}

// Secrets: data is base64.
for (const s of ofKind("Secret"))
  for (const [k, v] of Object.entries(s.data ?? {}))
    if (typeof v !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(v) || v.length % 4 !== 0)
      problem(id(s), `data.${k} is not base64`);

// --- 2. Workloads: selectors, containers, environment, ports, probes ------------------------
// A container's environment as the kubelet builds it: envFrom first, then env; values
// we can know ({value}) or references ({ref}).
function environment(w, c) {
  const where = `${id(w)} container ${c.name}`;
  const env = new Map();
  for (const from of c.envFrom ?? []) {
    const prefix = from.prefix ?? "";
    if (from.configMapRef) {
      const cm = find("ConfigMap", from.configMapRef.name);
      if (!cm) {
        if (!from.configMapRef.optional) problem(where, `envFrom: no ConfigMap ${from.configMapRef.name}`);
        continue;
      }
      for (const [k, v] of Object.entries(cm.data ?? {})) env.set(prefix + k, { value: v, from: id(cm) });
    }
    if (from.secretRef) {
      const s = find("Secret", from.secretRef.name);
      if (!s) {
        if (!from.secretRef.optional) problem(where, `envFrom: no Secret ${from.secretRef.name}`);
        continue;
      }
      for (const k of secretKeys(s)) env.set(prefix + k, { ref: `${id(s)}:${k}` });
    }
  }
  const names = new Set();
  for (const e of c.env ?? []) {
    if (names.has(e.name)) problem(where, `env ${e.name} is set twice`);
    names.add(e.name);
    if (e.valueFrom?.configMapKeyRef) {
      const r = e.valueFrom.configMapKeyRef;
      const cm = find("ConfigMap", r.name);
      if (!cm && !r.optional) problem(where, `env ${e.name}: no ConfigMap ${r.name}`);
      else if (cm && !(r.key in (cm.data ?? {})) && !r.optional) problem(where, `env ${e.name}: ConfigMap ${r.name} has no key ${r.key}`);
      env.set(e.name, cm?.data?.[r.key] !== undefined ? { value: cm.data[r.key], from: id(cm) } : { ref: "missing" });
    } else if (e.valueFrom?.secretKeyRef) {
      const r = e.valueFrom.secretKeyRef;
      const s = find("Secret", r.name);
      if (!s && !r.optional) problem(where, `env ${e.name}: no Secret ${r.name}`);
      else if (s && !secretKeys(s).has(r.key) && !r.optional) problem(where, `env ${e.name}: Secret ${r.name} has no key ${r.key}`);
      env.set(e.name, { ref: `Secret/${r.name}:${r.key}` });
    } else if (e.valueFrom) {
      env.set(e.name, { ref: "field" });
    } else {
      // $(VAR) expands only variables defined before this one.
      for (const m of String(e.value ?? "").matchAll(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g))
        if (!env.has(m[1])) problem(where, `env ${e.name} refers to $(${m[1]}), which is not defined before it`);
      env.set(e.name, { value: String(e.value ?? "") });
    }
  }
  return env;
}

function hostPort(text) {
  const m = /^(.*):(\d+)$/.exec(text);
  return m ? { host: m[1], port: Number(m[2]) } : null;
}

// The programs' flags and environment names, from their --help.
const helps = new Map();
if (args.helpDir) {
  for (const file of readdirSync(args.helpDir).filter((f) => f.endsWith(".txt"))) {
    const text = readFileSync(path.join(args.helpDir, file), "utf8");
    const known = new Set();
    const required = new Set();
    for (const line of text.split("\n")) {
      const m = /\(env (METROPOLIS_[A-Z0-9_]+)/.exec(line);
      if (!m) continue;
      known.add(m[1]);
      if (/\(required[;)]/.test(line)) required.add(m[1]);
    }
    helps.set(file.replace(/\.txt$/, ""), { known, required });
  }
}

// Address settings: the variable's suffix, and the program that must be behind it.
const ADDRESS_SUFFIXES = {
  _ACCOUNTS: "metropolis-accounts",
  _REPLAYS: "metropolis-replays",
  _RATINGS: "metropolis-ratings",
  _MATCHMAKER: "metropolis-matchmaker",
};

const envs = new Map(); // "workload/container" -> environment
for (const w of workloads) {
  const pod = podTemplate(w);
  const labels = podLabels(w);
  if (w.kind !== "Job") {
    const sel = w.spec?.selector?.matchLabels;
    if (!selects(sel, labels)) problem(id(w), "spec.selector.matchLabels does not select its own pod template's labels");
    for (const other of servers)
      if (other !== w && selects(sel, podLabels(other)))
        problem(id(w), `its selector also selects the pods of ${id(other)}`);
  }
  const volumes = new Map((pod.spec?.volumes ?? []).map((v) => [v.name, v]));
  // A StatefulSet's claims are volumes of its pods too.
  for (const t of w.spec?.volumeClaimTemplates ?? []) volumes.set(t.metadata?.name, { claim: t });
  if (w.kind === "StatefulSet") {
    const svc = find("Service", w.spec?.serviceName);
    if (!svc) problem(id(w), `serviceName "${w.spec?.serviceName}" names no Service of the chart`);
    else if (svc.spec?.clusterIP !== "None") problem(id(w), `serviceName ${id(svc)} is not headless (clusterIP: None)`);
  }
  for (const v of volumes.values()) {
    if (v.configMap && !find("ConfigMap", v.configMap.name) && !v.configMap.optional)
      problem(id(w), `volume ${v.name}: no ConfigMap ${v.configMap.name}`);
    if (v.secret && !find("Secret", v.secret.secretName) && !v.secret.optional)
      problem(id(w), `volume ${v.name}: no Secret ${v.secret.secretName}`);
  }
  for (const c of containersOf(w)) {
    const where = `${id(w)} container ${c.name}`;
    const ports = c.ports ?? [];
    const portByName = new Map(ports.filter((p) => p.name).map((p) => [p.name, p.containerPort]));
    const portNumbers = new Set(ports.map((p) => p.containerPort));
    const resolvePort = (p) => (typeof p === "string" ? portByName.get(p) : portNumbers.has(p) ? p : undefined);

    // The chart's rules for every service container: resources and probes.
    const res = c.resources ?? {};
    for (const kind of ["requests", "limits"])
      for (const r of ["cpu", "memory"])
        if (res[kind]?.[r] === undefined) problem(where, `no resources.${kind}.${r}`);
    if (w.kind !== "Job")
      for (const probe of ["readinessProbe", "livenessProbe"]) if (!c[probe]) problem(where, `no ${probe}`);
    if (!c.image || /:latest$/.test(c.image) || !/:[^/]+$/.test(c.image)) problem(where, `image "${c.image}" has no fixed tag`);

    for (const m of c.volumeMounts ?? []) if (!volumes.has(m.name)) problem(where, `volumeMount ${m.name}: no such volume`);

    // Probes point at declared ports; gRPC probes take a number.
    for (const probe of ["readinessProbe", "livenessProbe", "startupProbe"]) {
      const p = c[probe];
      if (!p) continue;
      if (p.grpc) {
        if (typeof p.grpc.port !== "number" || !portNumbers.has(p.grpc.port))
          problem(where, `${probe}: gRPC port ${p.grpc.port} is not a port of the container`);
      }
      for (const action of ["httpGet", "tcpSocket"])
        if (p[action] && resolvePort(p[action].port) === undefined)
          problem(where, `${probe}: ${action} port ${p[action].port} is not a port of the container`);
    }

    const env = environment(w, c);
    envs.set(`${id(w)}/${c.name}`, env);

    // What listens: every *_LISTEN address binds all interfaces on a declared port,
    // and every declared port has something listening on it.
    const listening = new Set();
    for (const [name, v] of env) {
      if (!name.endsWith("_LISTEN") || v.value === undefined || v.value === "") continue;
      const hp = hostPort(v.value);
      if (!hp) {
        problem(where, `${name}="${v.value}" is not host:port`);
        continue;
      }
      if (["127.0.0.1", "localhost", "[::1]", "::1"].includes(hp.host))
        problem(where, `${name}="${v.value}" listens on loopback only: unreachable from outside the pod`);
      if (!portNumbers.has(hp.port)) problem(where, `${name} listens on ${hp.port}, which the container does not declare`);
      listening.add(hp.port);
    }
    if (w.kind !== "Job")
      for (const p of ports)
        if (!listening.has(p.containerPort)) problem(where, `port ${p.name ?? ""} ${p.containerPort} is declared but no *_LISTEN setting listens on it`);
    // The address a game host advertises is its own port.
    for (const [name, v] of env)
      if (name.endsWith("_ADVERTISE") && v.value) {
        const hp = hostPort(v.value);
        if (!hp || !listening.has(hp.port)) problem(where, `${name}="${v.value}" does not advertise the port it listens on`);
      }

    // Addresses of the other services: a Service of the stream, on one of its ports,
    // in front of the program that serves it.
    for (const [name, v] of env) {
      const suffix = Object.keys(ADDRESS_SUFFIXES).find((s) => name.endsWith(s));
      if (!suffix || !name.startsWith("METROPOLIS_") || v.value === undefined || v.value === "") continue;
      const hp = hostPort(v.value);
      const svc = hp && find("Service", hp.host.split(".")[0]);
      if (!svc) {
        problem(where, `${name}="${v.value}" names no Service of the chart`);
        continue;
      }
      const sp = (svc.spec?.ports ?? []).find((p) => p.port === hp.port);
      if (!sp) {
        problem(where, `${name}="${v.value}": Service ${svc.metadata.name} has no port ${hp.port}`);
        continue;
      }
      const behind = servers.filter((d) => selects(svc.spec?.selector, podLabels(d)));
      if (!behind.some((d) => containersOf(d).some((bc) => program(bc) === ADDRESS_SUFFIXES[suffix])))
        problem(where, `${name}="${v.value}": Service ${svc.metadata.name} is not in front of ${ADDRESS_SUFFIXES[suffix]}`);
    }

    // Against the program's own --help: every METROPOLIS_* variable is one of its
    // settings, and every required one is set.
    if (args.helpDir) {
      const help = helps.get(program(c));
      if (!help) problem(where, `no --help text for the program "${program(c)}" in ${args.helpDir}`);
      else {
        for (const name of env.keys())
          if (name.startsWith("METROPOLIS_") && !help.known.has(name))
            problem(where, `${name} is not a setting of ${program(c)} (its --help does not list it)`);
        for (const name of help.required) {
          const v = env.get(name);
          if (!v || (v.value !== undefined && v.value === "")) problem(where, `${program(c)} requires ${name}, which is not set`);
        }
      }
    }
  }

  // Prometheus annotations: the port is the metrics port the program listens on.
  const a = pod.metadata?.annotations ?? {};
  if (a["prometheus.io/scrape"] === "true") {
    const port = Number(a["prometheus.io/port"]);
    const metricsPorts = containersOf(w).flatMap((c) => {
      const v = envs.get(`${id(w)}/${c.name}`);
      return [...v.entries()].filter(([n]) => n.endsWith("_METRICS_LISTEN")).map(([, x]) => hostPort(x.value ?? "")?.port);
    });
    if (!metricsPorts.includes(port))
      problem(id(w), `prometheus.io/port "${a["prometheus.io/port"]}" is not the port any *_METRICS_LISTEN setting listens on`);
  }
}

// --- 3. Services ----------------------------------------------------------------------
for (const s of ofKind("Service")) {
  const sel = s.spec?.selector;
  if (!sel || Object.keys(sel).length === 0) {
    problem(id(s), "no selector");
    continue;
  }
  const behind = servers.filter((d) => selects(sel, podLabels(d)));
  const own = find("Deployment", s.metadata.name) ?? find("StatefulSet", s.metadata.name);
  if (behind.length === 0) problem(id(s), `its selector ${JSON.stringify(sel)} selects no pods of any Deployment or StatefulSet`);
  else if (behind.length > 1) problem(id(s), `its selector selects the pods of ${behind.map(id).join(" and ")}`);
  else if (own && behind[0] !== own) problem(id(s), `selects the pods of ${id(behind[0])}, not of its own ${id(own)}`);
  if (!own) problem(id(s), "no Deployment or StatefulSet of the same name");
  for (const d of behind)
    for (const p of s.spec?.ports ?? []) {
      const target = p.targetPort ?? p.port;
      const ok = containersOf(d).some((c) =>
        (c.ports ?? []).some((cp) =>
          (typeof target === "string" ? cp.name === target : cp.containerPort === target) &&
          (cp.protocol ?? "TCP") === (p.protocol ?? "TCP")));
      if (!ok) problem(id(s), `port ${p.name ?? p.port}: targetPort ${target} is not a container port of ${id(d)}`);
    }
}

// --- 4. Autoscalers and disruption budgets -------------------------------------------------
const scaled = new Set();
for (const h of ofKind("HorizontalPodAutoscaler")) {
  const ref = h.spec?.scaleTargetRef ?? {};
  const target = ref.kind === "Deployment" && ref.apiVersion === "apps/v1" ? find("Deployment", ref.name) : undefined;
  if (!target) {
    problem(id(h), `scaleTargetRef ${ref.apiVersion} ${ref.kind}/${ref.name} is not a Deployment of the chart`);
    continue;
  }
  scaled.add(target);
  if ((h.spec.minReplicas ?? 1) > h.spec.maxReplicas) problem(id(h), "minReplicas is above maxReplicas");
  if (target.spec?.replicas !== undefined)
    problem(id(h), `${id(target)} sets spec.replicas, which every upgrade would reset under the autoscaler`);
  for (const m of h.spec?.metrics ?? [])
    if (m.type === "Resource" && m.resource?.target?.type === "Utilization")
      for (const c of containersOf(target))
        if (c.resources?.requests?.[m.resource.name] === undefined)
          problem(id(h), `scales on ${m.resource.name} utilization, but container ${c.name} of ${id(target)} requests no ${m.resource.name}`);
  if (containersOf(target).some((c) => program(c) === "metropolis-gamehost"))
    problem(id(h), "autoscales the game hosts, whose live games are in memory");
}

const budgets = ofKind("PodDisruptionBudget");
for (const b of budgets) {
  const covered = servers.filter((d) => selects(b.spec?.selector?.matchLabels, podLabels(d)));
  if (covered.length === 0) problem(id(b), `its selector ${JSON.stringify(b.spec?.selector?.matchLabels)} selects no pods of any Deployment or StatefulSet`);
  for (const d of covered)
    if (b.spec.maxUnavailable === 0 || (typeof b.spec.minAvailable === "number" && b.spec.minAvailable >= (d.spec?.replicas ?? 1)))
      problem(id(b), `leaves no pod of ${id(d)} evictable: nodes with them could never be drained`);
}
for (const d of servers)
  if (containersOf(d).some((c) => program(c) === "metropolis-gamehost") &&
      !budgets.some((b) => selects(b.spec?.selector?.matchLabels, podLabels(d))))
    problem(id(d), "runs the game hosts but no PodDisruptionBudget selects its pods");
if (!servers.some((d) => containersOf(d).some((c) => program(c) === "metropolis-gamehost")))
  problem("stream", "no Deployment or StatefulSet runs metropolis-gamehost");
// A game host's data folder holds completed games until they are stored: it must
// outlive the pod, so it is a PersistentVolumeClaim of a StatefulSet.
for (const d of servers)
  for (const c of containersOf(d)) {
    if (program(c) !== "metropolis-gamehost") continue;
    const dir = environment(d, c).get("METROPOLIS_GAMEHOST_DATA_DIR")?.value;
    const mount = (c.volumeMounts ?? []).find((m) => m.mountPath === dir);
    const claimed = mount && (d.spec?.volumeClaimTemplates ?? []).some((t) => t.metadata?.name === mount.name);
    if (!claimed) problem(`${id(d)} container ${c.name}`, `the game hosts' data folder ${dir ?? "(unset)"} is not on a PersistentVolumeClaim: completed games would go with the pod`);
  }

// --- 5. Helm hooks ----------------------------------------------------------------------------
// Hooks run before the release's other objects exist: what a hook uses must be a hook
// of the same events, created before it (a lower weight). And nothing else may use an
// object that a hook policy deletes.
const referenced = (w) => {
  const refs = [];
  for (const c of containersOf(w)) {
    for (const f of c.envFrom ?? []) {
      if (f.configMapRef) refs.push(["ConfigMap", f.configMapRef.name]);
      if (f.secretRef) refs.push(["Secret", f.secretRef.name]);
    }
    for (const e of c.env ?? []) {
      if (e.valueFrom?.configMapKeyRef) refs.push(["ConfigMap", e.valueFrom.configMapKeyRef.name]);
      if (e.valueFrom?.secretKeyRef) refs.push(["Secret", e.valueFrom.secretKeyRef.name]);
    }
  }
  for (const v of podTemplate(w).spec?.volumes ?? []) {
    if (v.configMap) refs.push(["ConfigMap", v.configMap.name]);
    if (v.secret) refs.push(["Secret", v.secret.secretName]);
  }
  return refs.map(([kind, name]) => find(kind, name)).filter(Boolean);
};
for (const w of workloads) {
  const events = hookOf(w) ? new Set(hookOf(w).split(",").map((x) => x.trim())) : null;
  for (const r of referenced(w)) {
    if (events) {
      const theirs = new Set((hookOf(r) ?? "").split(",").map((x) => x.trim()));
      if (![...events].every((e) => theirs.has(e)))
        problem(id(w), `a ${[...events].join(",")} hook uses ${id(r)}, which does not exist yet when the hook runs`);
      else if (hookWeight(r) >= hookWeight(w)) problem(id(w), `uses ${id(r)}, whose hook weight is not below its own`);
    } else if (hookOf(r)) {
      problem(id(w), `uses ${id(r)}, a hook object that Helm deletes (${annotations(r)["helm.sh/hook-delete-policy"] ?? ""})`);
    }
  }
}
const migrations = jobs.filter((j) => containersOf(j).some((c) => program(c) === "metropolis-migrate"));
if (migrations.length === 0) problem("stream", "no Job runs metropolis-migrate");
for (const j of migrations) {
  const events = (hookOf(j) ?? "").split(",").map((x) => x.trim());
  if (!events.includes("pre-install") || !events.includes("pre-upgrade"))
    problem(id(j), "the migrations are not a pre-install,pre-upgrade hook");
}

// --- Report ------------------------------------------------------------------------------------
if (problems.length > 0) {
  console.error(`helm check: ${problems.length} problem(s) in ${objects.length} objects:`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
const kinds = {};
for (const o of objects) kinds[o.kind] = (kinds[o.kind] ?? 0) + 1;
console.log(
  `helm check: ${objects.length} objects (${Object.entries(kinds).map(([k, n]) => `${n} ${k}`).join(", ")}) ` +
    `valid against the schemas of kubernetes-models ${modelsVersion}; cross checks passed` +
    (args.helpDir ? `; environment checked against ${helps.size} programs' --help` : "") +
    ".",
);
