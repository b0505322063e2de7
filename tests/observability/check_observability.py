#!/usr/bin/env python3
"""Checks deploy/prometheus and deploy/grafana against the services' code (label lint).

Every metric an alert rule or a dashboard names must be one the services define:
the metric families are read from the C++ (every `Build{Counter,Gauge,Histogram}()
.Name("...")` under services/ and lib/, whose common/ defines the families every
service shares), and a histogram's series are its name with _bucket,
_sum or _count. Starting the services and scraping them would only see families
already registered, and needs PostgreSQL and Redis; every family here is
registered when its service starts, so reading the definitions sees the same
names, in a second and without a database.

Then promtool (Debian's `prometheus` package, scripts/setup.sh) checks the rules,
runs their unit tests (deploy/prometheus/alerts_test.yml) and checks the local
stack's configuration as local.sh writes it. Debian's promtool is built without
Kubernetes discovery, so the Kubernetes configuration is checked here instead
(its structure and relabelling). Fails, never skips: a missing promtool is an error.

  tests/observability/check_observability.py [REPO_ROOT]
  tests/observability/check_observability.py --self-test [REPO_ROOT]
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

FAMILY_RE = re.compile(r'Build(Counter|Gauge|Histogram|Summary)\(\)\s*\.Name\(\s*"([a-zA-Z_:][a-zA-Z0-9_:]*)"\s*\)')
# PromQL words that look like metric names but are not.
PROMQL_WORDS = {
    "sum", "min", "max", "avg", "count", "stddev", "stdvar", "topk", "bottomk", "quantile", "count_values", "group",
    "by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "bool", "offset",
    "rate", "irate", "increase", "delta", "idelta", "deriv", "predict_linear", "histogram_quantile", "clamp_min",
    "clamp_max", "clamp", "abs", "absent", "absent_over_time", "ceil", "floor", "round", "exp", "ln", "log2",
    "log10", "sqrt", "time", "timestamp", "vector", "scalar", "sort", "sort_desc", "label_replace", "label_join",
    "changes", "resets", "avg_over_time", "min_over_time", "max_over_time", "sum_over_time", "count_over_time",
    "last_over_time", "quantile_over_time", "le", "inf", "nan",
}
# Series every scrape has, not defined by the services.
BUILTIN_SERIES = {"up", "scrape_duration_seconds", "scrape_samples_scraped"}
COMPONENTS = {"gamehost", "replays", "ratings", "matchmaker", "gateway"}


class Failures:
    def __init__(self):
        self.items = []

    def add(self, where, what):
        self.items.append(f"{where}: {what}")


def metric_families(root):
    """{name: type} of every metric family defined in services/**/*.cc and lib/**/*.cc."""
    families = {}
    for folder, _, files in [w for top in ("services", "lib") for w in os.walk(os.path.join(root, top))]:
        for name in files:
            if not name.endswith(".cc"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                text = f.read()
            for kind, family in FAMILY_RE.findall(text):
                families[family] = kind.lower()
    return families


def strip_strings_and_labels(expr):
    """The expression without quoted strings, label matchers, by/without lists and ranges."""
    expr = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    expr = re.sub(r"'(?:[^'\\]|\\.)*'", "''", expr)
    expr = re.sub(r"\{[^}]*\}", "", expr)
    expr = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", expr)
    expr = re.sub(r"\[[^\]]*\]", "", expr)
    return expr


def series_names(expr):
    """The metric names a PromQL expression reads."""
    names = set()
    for m in re.finditer(r"(?<![\w.:])([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\()?", strip_strings_and_labels(expr)):
        word, call = m.group(1), m.group(2)
        if call or word.lower() in PROMQL_WORDS or re.fullmatch(r"\d.*", word):
            continue
        # Numbers in exponent form ("1e-9") split into "e" pieces: skip single letters.
        if len(word) == 1:
            continue
        names.add(word)
    return names


def check_series(names, families, where, failures):
    for name in sorted(names):
        if name in BUILTIN_SERIES or name in families:
            if families.get(name) == "histogram":
                failures.add(where, f"{name} is a histogram: read {name}_bucket, _sum or _count")
            continue
        base = re.sub(r"_(bucket|sum|count)$", "", name)
        if base != name and families.get(base) in ("histogram", "summary"):
            if name.endswith("_bucket") and families[base] != "histogram":
                failures.add(where, f"{name}: {base} is not a histogram")
            continue
        failures.add(where, f"metric {name} is not defined by any service (services/**/metrics.cc, lib/common/metrics.cc)")


def check_alerts(root, families, failures):
    path = os.path.join(root, "deploy/prometheus/alerts.yml")
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    alerts = []
    with open(os.path.join(root, "docs/OBSERVABILITY.md"), encoding="utf-8") as f:
        docs = f.read()
    headings = {re.sub(r"[^a-z0-9-]", "", h.strip().lower().replace(" ", "-"))
                for h in re.findall(r"^#+\s+(.*)$", docs, flags=re.M)}
    for group in doc.get("groups", []):
        for rule in group.get("rules", []):
            name = rule.get("alert") or rule.get("record")
            where = f"alerts.yml {name}"
            check_series(series_names(rule["expr"]), families, where, failures)
            if "alert" not in rule:
                continue
            alerts.append(name)
            if rule.get("labels", {}).get("severity") not in ("page", "warning"):
                failures.add(where, "needs labels.severity page or warning")
            annotations = rule.get("annotations", {})
            if not annotations.get("summary"):
                failures.add(where, "needs annotations.summary")
            runbook = annotations.get("runbook", "")
            anchor = runbook.partition("#")[2]
            if not runbook.startswith("docs/OBSERVABILITY.md#") or anchor not in headings:
                failures.add(where, f"runbook {runbook!r} is not a heading of docs/OBSERVABILITY.md")
    for expected in ("MetropolisServiceDown", "MetropolisGameHostDown", "MetropolisNoGameHosts",
                     "MetropolisQueueWaitsGrowing", "MetropolisDecisionTimeouts", "MetropolisOutboxBacklogGrowing",
                     "MetropolisDatabaseErrors", "MetropolisRedisErrors"):
        if expected not in alerts:
            failures.add("alerts.yml", f"alert {expected} is missing")
    return alerts


def check_dashboards(root, families, failures):
    folder = os.path.join(root, "deploy/grafana/dashboards")
    dashboards = sorted(n for n in os.listdir(folder) if n.endswith(".json"))
    if not dashboards:
        failures.add(folder, "no dashboards")
    uids = set()
    titles = set()
    for name in dashboards:
        where = f"dashboards/{name}"
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            try:
                d = json.load(f)
            except json.JSONDecodeError as e:
                failures.add(where, f"not JSON: {e}")
                continue
        for key in ("uid", "title", "panels"):
            if not d.get(key):
                failures.add(where, f"no {key}")
        if d.get("uid") in uids:
            failures.add(where, f"uid {d.get('uid')} used twice")
        uids.add(d.get("uid"))
        ids = set()
        for panel in d.get("panels", []):
            titles.add(panel.get("title", ""))
            if panel.get("id") in ids:
                failures.add(where, f"panel id {panel.get('id')} used twice")
            ids.add(panel.get("id"))
            if panel.get("type") == "row":
                continue
            targets = panel.get("targets", [])
            if not targets:
                failures.add(where, f"panel {panel.get('title')!r} has no query")
            for t in targets:
                check_series(series_names(t.get("expr", "")), families, f"{where} panel {panel.get('title')!r}",
                             failures)
    # What the dashboards must show (issue: live games, decisions per second and
    # latency, queue depth and time to match, ratings and replays written, errors).
    wanted = ["Live games", "Decisions per second", "Decision round trip", "Queue depth", "Time to match",
              "Games stored", "Games rated", "errors by service and code"]
    for w in wanted:
        if not any(w.lower() in t.lower() for t in titles):
            failures.add("dashboards", f"no panel about {w!r}")


def check_kubernetes_config(root, failures):
    path = os.path.join(root, "deploy/prometheus/prometheus.yml")
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    if "alerts.yml" not in doc.get("rule_files", []):
        failures.add("prometheus.yml", "does not load alerts.yml")
    jobs = doc.get("scrape_configs", [])
    k8s = [j for j in jobs if j.get("kubernetes_sd_configs")]
    if not k8s:
        failures.add("prometheus.yml", "no job discovers pods with kubernetes_sd_configs")
    for job in k8s:
        if [c.get("role") for c in job["kubernetes_sd_configs"]] != ["pod"]:
            failures.add("prometheus.yml", f"job {job.get('job_name')}: discover pods (role: pod)")
        relabel = job.get("relabel_configs", [])
        sources = {tuple(r.get("source_labels", [])): r for r in relabel}
        scrape = sources.get(("__meta_kubernetes_pod_annotation_prometheus_io_scrape",))
        if not scrape or scrape.get("action") != "keep" or scrape.get("regex") != "true":
            failures.add("prometheus.yml", "pods must be kept only with prometheus.io/scrape: \"true\"")
        port = sources.get(("__address__", "__meta_kubernetes_pod_annotation_prometheus_io_port"))
        if not port or port.get("target_label") != "__address__":
            failures.add("prometheus.yml", "the address must take its port from prometheus.io/port")
        elif re.sub("^(?:" + port["regex"] + ")$", re.sub(r"\$(\d+)", r"\\\1", port["replacement"]),
                    "10.0.0.7:50051;9464") != "10.0.0.7:9464":
            failures.add("prometheus.yml", "the prometheus.io/port relabelling does not give POD_IP:PORT")
        if not any(r.get("target_label") == "component" for r in relabel):
            failures.add("prometheus.yml", "targets need the `component` label the alerts use")
    # The chart's pods carry what this configuration reads.
    helpers = os.path.join(root, "helm/metropolis/templates/_helpers.tpl")
    if os.path.exists(helpers):
        with open(helpers, encoding="utf-8") as f:
            text = f.read()
        for needed in ("prometheus.io/scrape", "prometheus.io/port", "app.kubernetes.io/component"):
            if needed not in text:
                failures.add("helm/metropolis", f"the chart's pods lack {needed}")


def run(command, failures, where):
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        failures.add(where, f"{command[0]} is not installed (Debian package prometheus; scripts/setup.sh)")
        return
    if out.returncode != 0:
        failures.add(where, f"{' '.join(command)} failed:\n{out.stdout}{out.stderr}")


def check_with_promtool(root, failures):
    promtool = shutil.which("promtool")
    if not promtool:
        failures.add("promtool", "not installed (Debian package prometheus; scripts/setup.sh installs it)")
        return
    prom = os.path.join(root, "deploy/prometheus")
    run([promtool, "check", "rules", os.path.join(prom, "alerts.yml")], failures, "promtool check rules")
    # promtool test rules resolves rule_files from the working directory.
    cwd = os.getcwd()
    os.chdir(prom)
    try:
        run([promtool, "test", "rules", "alerts_test.yml"], failures, "promtool test rules")
    finally:
        os.chdir(cwd)
    with tempfile.TemporaryDirectory() as tmp:
        env_file = os.path.join(tmp, "stack.env")
        with open(env_file, "w", encoding="utf-8") as f:
            f.write("export METROPOLIS_METRICS_TARGETS='replays=127.0.0.1:1 ratings=127.0.0.1:2 "
                    "matchmaker=127.0.0.1:3 matchmaker2=127.0.0.1:4 gamehost1=127.0.0.1:5'\n"
                    "export METROPOLIS_GATEWAY_METRICS='127.0.0.1:6'\n")
        out = subprocess.run([os.path.join(prom, "local.sh"), env_file], capture_output=True, text=True)
        if out.returncode != 0:
            failures.add("local.sh", out.stderr)
            return
        config = os.path.join(tmp, "prometheus.yml")
        with open(config, "w", encoding="utf-8") as f:
            f.write(out.stdout)
        run([promtool, "check", "config", config], failures, "promtool check config (local stack)")
        doc = yaml.safe_load(out.stdout)
        labels = [sc["labels"]["component"] for sc in doc["scrape_configs"][0]["static_configs"]]
        if sorted(set(labels)) != sorted(COMPONENTS):
            failures.add("local.sh", f"components {labels}, expected each of {sorted(COMPONENTS)}")


def check_one_rpc_count(root, failures):
    """Every call is counted once, by the server interceptor every service installs
    (lib/common/metrics.cc, metropolis_grpc_requests_total): a service that counts
    its own calls beside it counts them twice."""
    for folder, _, files in os.walk(os.path.join(root, "services")):
        for name in files:
            if not name.endswith(".cc"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                for _, family in FAMILY_RE.findall(f.read()):
                    if re.search(r"(rpcs|rpc_calls|grpc_requests)_total$", family):  # HTTP requests are the gateway's own
                        failures.add(os.path.relpath(path, root),
                                     f"{family} counts calls a second time (metropolis_grpc_requests_total counts "
                                     "every call of every service)")


def check_injected_metrics(root, failures):
    """A service's metrics are made on a registry they are given and passed to what
    counts (DEVELOPERS.md, "Time and metrics are injected"): its metrics files
    neither reach the process's registry themselves nor keep a global instance,
    so a unit test counts on a registry of its own."""
    for folder, _, files in os.walk(os.path.join(root, "services")):
        for name in files:
            if name not in ("metrics.h", "metrics.cc"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if re.search(r"\bMetricsRegistry\(\)|\bstatic\s+\w+Metrics\s*&\s*Get\(", text):
                failures.add(os.path.relpath(path, root),
                             "a global instance of a service's metrics: make them on a registry in the server "
                             "wiring and pass them to what counts")


STATIC_FAMILY_RE = re.compile(r"\bstatic\b[^;{}]*?(?:\bFamily<|\bBuild(?:Counter|Gauge|Histogram|Summary)\(\))")


def check_no_process_registry(root, failures):
    """Every metric is made on the registry a program's wiring made and passed down
    (lib/common/metrics.h, ProcessMetrics for what every process counts): no code
    reaches a process-wide registry or keeps families in statics, which would count
    every test's calls in one place and register a family wherever it is first used."""
    for top in ("services", "lib", "tools"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in files:
                if not name.endswith((".cc", ".h")):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                if re.search(r"\bMetricsRegistry\(\)", text) or STATIC_FAMILY_RE.search(text):
                    failures.add(os.path.relpath(path, root),
                                 "metrics on a process-wide registry or in a static: take the registry or "
                                 "services::ProcessMetrics the wiring passes")


def check(root):
    failures = Failures()
    families = metric_families(root)
    check_one_rpc_count(root, failures)
    check_injected_metrics(root, failures)
    check_no_process_registry(root, failures)
    if len(families) < 20:
        failures.add("services", f"only {len(families)} metric families found: is the pattern out of date?")
    check_alerts(root, families, failures)
    check_dashboards(root, families, failures)
    check_kubernetes_config(root, failures)
    check_with_promtool(root, failures)
    return families, failures.items


def self_test(root):
    """The check must catch an unknown metric, a bare histogram and a missing alert."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "repo")
        for part in ("services", "lib", "deploy", "docs", "helm"):
            if os.path.exists(os.path.join(root, part)):
                shutil.copytree(os.path.join(root, part), os.path.join(copy, part),
                                ignore=shutil.ignore_patterns("*.o", "node_modules"))
        alerts = os.path.join(copy, "deploy/prometheus/alerts.yml")
        with open(alerts, encoding="utf-8") as f:
            text = f.read()
        text = text.replace("metropolis_gamehost_outbox_backlog > 20", "metropolis_gamehost_outbox_size > 20")
        text = text.replace("alert: MetropolisRedisErrors", "alert: MetropolisRedisTrouble")
        with open(alerts, "w", encoding="utf-8") as f:
            f.write(text)
        dash = os.path.join(copy, "deploy/grafana/dashboards/metropolis-games.json")
        with open(dash, encoding="utf-8") as f:
            text = f.read()
        text = text.replace("metropolis_gamehost_decision_round_trip_seconds_bucket",
                            "metropolis_gamehost_decision_round_trip_seconds")
        with open(dash, "w", encoding="utf-8") as f:
            f.write(text)
        with open(os.path.join(copy, "services/gamehost/metrics.cc"), "a", encoding="utf-8") as f:
            f.write('\nauto& x = BuildCounter().Name("metropolis_gamehost_rpcs_total").Register(*r);\n')
        with open(os.path.join(copy, "services/ratings/metrics.cc"), "a", encoding="utf-8") as f:
            f.write("\nRatingsMetrics& Shared() { static RatingsMetrics m(services::MetricsRegistry().get()); "
                    "return m; }\n")
        with open(os.path.join(copy, "lib/common/rate_limit.cc"), "a", encoding="utf-8") as f:
            f.write('\nvoid Count() { static auto* f = &prometheus::BuildCounter().Name("x_total").Register(r); }\n')
        _, problems = check(copy)
        joined = "\n".join(problems)
        expected = ["metropolis_gamehost_outbox_size is not defined",
                    "alert MetropolisRedisErrors is missing",
                    "metropolis_gamehost_decision_round_trip_seconds is a histogram",
                    "metropolis_gamehost_rpcs_total counts calls a second time",
                    "services/ratings/metrics.cc: a global instance of a service's metrics",
                    "lib/common/rate_limit.cc: metrics on a process-wide registry or in a static"]
        missed = [e for e in expected if e not in joined]
        if missed:
            print("self-test: the check missed: " + "; ".join(missed) + "\nit said:\n" + joined)
            return 1
    print("self-test: the check catches unknown metrics, bare histograms, missing alerts, calls counted twice, "
          "a service's metrics made globally and families kept in statics")
    return 0


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), "../.."))
    if "--self-test" in argv:
        return self_test(root)
    families, problems = check(root)
    if problems:
        print(f"observability check: {len(problems)} problem(s):")
        for p in problems:
            print("  " + p)
        return 1
    print(f"observability check: passed ({len(families)} metric families in the code; alerts and dashboards "
          "name only those; promtool checked the rules, their tests and the local configuration)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
