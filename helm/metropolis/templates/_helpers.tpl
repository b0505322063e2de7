{{- /*
Named templates shared by the chart's files. The chart keeps to the subset of
helm/README.md: Go text/template, sprig, and of Helm's own functions only include,
required and toYaml; of the built-in objects only .Values, .Release and .Chart.
Templates that take several arguments take a dict: "root" is the top-level
context ($), "component" the service's name (replays, ratings, ...).
*/ -}}

{{- define "metropolis.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "metropolis.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* The name of a component's objects: <fullname>-<component>. dict: root, component */ -}}
{{- define "metropolis.componentName" -}}
{{- printf "%s-%s" (include "metropolis.fullname" .root) .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- /* The Secret of the credentials (templates/secret.yaml). */ -}}
{{- define "metropolis.secretName" -}}
{{- include "metropolis.fullname" . -}}
{{- end -}}

{{- /* Labels that select a component's pods. dict: root, component */ -}}
{{- define "metropolis.selectorLabels" -}}
app.kubernetes.io/name: {{ include "metropolis.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- /* Every object's labels. dict: root, component */ -}}
{{- define "metropolis.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "metropolis.selectorLabels" . }}
app.kubernetes.io/part-of: metropolis
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- end -}}

{{- define "metropolis.image" -}}
{{- printf "%s:%s" (required "image.repository is required" .Values.image.repository) (default .Chart.AppVersion .Values.image.tag | toString) -}}
{{- end -}}

{{- /* host:port of a component's Service, as the other services dial it. dict: root, component */ -}}
{{- define "metropolis.address" -}}
{{- $values := index .root.Values .component -}}
{{- printf "%s:%d" (include "metropolis.componentName" .) (int $values.port) -}}
{{- end -}}

{{- /* A value as an environment variable's text: integers without an exponent
(values arrive as float64, as in Helm), everything else as it prints. */ -}}
{{- define "metropolis.envValue" -}}
{{- if kindIs "float64" . -}}
{{- if eq (float64 (int64 .)) . -}}{{ int64 . }}{{- else -}}{{ . }}{{- end -}}
{{- else if kindIs "invalid" . -}}
{{- else -}}
{{- toString . -}}
{{- end -}}
{{- end -}}

{{- /* The environment variable of a flag: METROPOLIS_REPLAYS_ + "max-calls" → METROPOLIS_REPLAYS_MAX_CALLS. dict: prefix, flag */ -}}
{{- define "metropolis.envName" -}}
{{- printf "%s%s" .prefix (.flag | replace "-" "_" | upper) -}}
{{- end -}}

{{- /*
Checks a component's `config` values: every key a flag name, and none of the flags
the chart sets itself (`reserved`). Prints nothing. dict: component, config, reserved
*/ -}}
{{- define "metropolis.checkConfig" -}}
{{- $component := .component -}}
{{- range $flag, $value := .config -}}
{{- if not (regexMatch "^[a-z][a-z0-9]*(-[a-z0-9]+)*$" $flag) -}}
{{- fail (printf "%s.config.%s: keys are the service's flag names (lower case, with dashes)" $component $flag) -}}
{{- end -}}
{{- if has $flag $.reserved -}}
{{- fail (printf "%s.config.%s: the chart sets this flag itself (see helm/README.md)" $component $flag) -}}
{{- end -}}
{{- if or (kindIs "map" $value) (kindIs "slice" $value) -}}
{{- fail (printf "%s.config.%s: a flag's value is a string, number or boolean" $component $flag) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /*
A component's ConfigMap: its settings as environment variables.
dict: root, component, prefix (METROPOLIS_REPLAYS_), settings (flag → value)
*/ -}}
{{- define "metropolis.configMap" -}}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "metropolis.componentName" . }}
  labels:
    {{- include "metropolis.labels" . | nindent 4 }}
data:
{{- range $flag, $value := .settings }}
  {{ include "metropolis.envName" (dict "prefix" $.prefix "flag" $flag) }}: {{ include "metropolis.envValue" $value | quote }}
{{- end }}
{{- end -}}

{{- /* An environment variable from the chart's Secret. dict: root, name, key */ -}}
{{- define "metropolis.secretEnv" -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ include "metropolis.secretName" .root }}
      key: {{ .key }}
{{- end -}}

{{- /* The pod template's annotations. dict: root, checksum, metricsPort (0: none) */ -}}
{{- define "metropolis.podAnnotations" -}}
checksum/config: {{ .checksum }}
checksum/secret: {{ include "metropolis.secretData" .root | sha256sum }}
{{- if and .root.Values.metrics.enabled .metricsPort }}
prometheus.io/scrape: "true"
prometheus.io/port: {{ .metricsPort | int | toString | quote }}
prometheus.io/path: /metrics
{{- end }}
{{- with .root.Values.podAnnotations }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- /* What every pod spec has besides its containers. dict: root, values (the component's) */ -}}
{{- define "metropolis.podSpecCommon" -}}
automountServiceAccountToken: false
enableServiceLinks: false
{{- with .root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .root.Values.podSecurityContext | nindent 2 }}
terminationGracePeriodSeconds: {{ .values.terminationGracePeriodSeconds | default 30 | int }}
{{- with (.values.nodeSelector | default .root.Values.nodeSelector) }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with (.values.tolerations | default .root.Values.tolerations) }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with (.values.affinity | default .root.Values.affinity) }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{- /* A container's image, security context and resources. dict: root, values */ -}}
{{- define "metropolis.containerCommon" -}}
image: {{ include "metropolis.image" .root | quote }}
imagePullPolicy: {{ .root.Values.image.pullPolicy }}
securityContext:
  {{- toYaml .root.Values.securityContext | nindent 2 }}
resources:
  {{- toYaml (required "every service needs resources (requests and limits)" .values.resources) | nindent 2 }}
{{- end -}}

{{- /*
gRPC health probes (grpc.health.v1): readiness asks about the service by name,
liveness about the whole server (""). dict: root, port, service
*/ -}}
{{- define "metropolis.grpcProbes" -}}
readinessProbe:
  grpc:
    port: {{ .port | int }}
    service: {{ .service }}
  {{- toYaml .root.Values.probes.readiness | nindent 2 }}
livenessProbe:
  grpc:
    port: {{ .port | int }}
  {{- toYaml .root.Values.probes.liveness | nindent 2 }}
{{- end -}}

{{- /*
A component's Service: `port` to the pods' port named `portName` (default grpc).
dict: root, component, port, portName, headless, type
*/ -}}
{{- define "metropolis.service" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "metropolis.componentName" . }}
  labels:
    {{- include "metropolis.labels" . | nindent 4 }}
spec:
  {{- if .headless }}
  clusterIP: None
  {{- else }}
  type: {{ .type | default "ClusterIP" }}
  {{- end }}
  {{- if .clientIPAffinity }}
  sessionAffinity: ClientIP
  {{- end }}
  selector:
    {{- include "metropolis.selectorLabels" . | nindent 4 }}
  ports:
    - name: {{ .portName | default "grpc" }}
      port: {{ .port | int }}
      targetPort: {{ .portName | default "grpc" }}
      protocol: TCP
      {{- if eq (.portName | default "grpc") "grpc" }}
      appProtocol: grpc
      {{- end }}
{{- end -}}

{{- /* A component's HorizontalPodAutoscaler, on CPU. dict: root, component, values */ -}}
{{- define "metropolis.hpa" -}}
{{- $scaling := .values.autoscaling -}}
{{- if gt (int $scaling.minReplicas) (int $scaling.maxReplicas) -}}
{{- fail (printf "%s.autoscaling: minReplicas is above maxReplicas" .component) -}}
{{- end -}}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "metropolis.componentName" . }}
  labels:
    {{- include "metropolis.labels" . | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "metropolis.componentName" . }}
  minReplicas: {{ $scaling.minReplicas | int }}
  maxReplicas: {{ $scaling.maxReplicas | int }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ $scaling.targetCPUUtilizationPercentage | int }}
{{- end -}}

{{- /*
The Secret's data: every credential, base64. Shared by templates/secret.yaml and
the checksum that restarts pods when a credential changes.
*/ -}}
{{- define "metropolis.secretData" -}}
{{- $db := required "database.url is required (a libpq connection string or URI)" .Values.database.url -}}
database-url: {{ $db | b64enc }}
redis-address: {{ required "redis.address is required (host:port or sentinel:NAME@HOST:PORT,...)" .Values.redis.address | b64enc }}
{{- with .Values.redis.password }}
redis-password: {{ . | b64enc }}
{{- end }}
service-token: {{ required "secrets.serviceToken is required (the game hosts' service token)" .Values.secrets.serviceToken | b64enc }}
host-admin-token: {{ required "secrets.hostAdminToken is required (the game hosts' administrator token)" .Values.secrets.hostAdminToken | b64enc }}
{{- $chanceKey := required "secrets.chanceKey is required (the game hosts' platform key for secret chance seeds, at least 32 characters)" .Values.secrets.chanceKey }}
{{- if lt (len $chanceKey) 32 }}{{ fail "secrets.chanceKey: at least 32 characters (e.g. 64 hex digits from a random generator)" }}{{ end }}
chance-key: {{ $chanceKey | b64enc }}
{{- if .Values.gateway.enabled }}
host-spectator-token: {{ required "secrets.hostSpectatorToken is required with the gateway (the game hosts' spectator token)" .Values.secrets.hostSpectatorToken | b64enc }}
gateway-service-token: {{ required "secrets.gatewayServiceToken is required with the gateway (its service token: the Accounts service's, and replays', ratings' and the matchmaker's --gateway-token)" .Values.secrets.gatewayServiceToken | b64enc }}
{{- $seatKey := required "secrets.seatKey is required with the gateway (the key people's seat tokens are stored encrypted with, at least 32 characters)" .Values.secrets.seatKey }}
{{- if lt (len $seatKey) 32 }}{{ fail "secrets.seatKey: at least 32 characters (e.g. 64 hex digits from a random generator)" }}{{ end }}
seat-key: {{ $seatKey | b64enc }}
{{- else if .Values.secrets.hostSpectatorToken }}
host-spectator-token: {{ .Values.secrets.hostSpectatorToken | b64enc }}
{{- end }}
{{- end -}}
