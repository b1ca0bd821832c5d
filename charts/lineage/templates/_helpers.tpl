{{/*
Names, labels and the per-service context shared by every template.
Each service is a "component": the templates loop over the enabled ones.
*/}}

{{- define "lineage.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "lineage.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "lineage.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Static facts about each service: its name, HTTP port, the schema it owns and
the Secret key of its database URL. Keys are the values.yaml sections.
*/}}
{{- define "lineage.componentTable" -}}
gateway: {name: gateway, port: 8080, schema: "", databaseKey: ""}
analysisPipeline: {name: analysis-pipeline, port: 8081, schema: analysis, databaseKey: analysisDatabaseUrl}
caseStore: {name: case-store, port: 8082, schema: cases, databaseKey: casesDatabaseUrl}
factIndexer: {name: fact-indexer, port: 8083, schema: facts, databaseKey: factsDatabaseUrl}
chainReader: {name: chain-reader, port: 8084, schema: "", databaseKey: ""}
{{- end }}

{{/*
JSON list of the enabled components, in a fixed order. Each item:
{key, name, fullname, port, schema, databaseKey, values}.
Usage: range $c := include "lineage.components" . | fromJsonArray
*/}}
{{- define "lineage.components" -}}
{{- $table := include "lineage.componentTable" . | fromYaml }}
{{- $out := list }}
{{- range $key := list "gateway" "analysisPipeline" "caseStore" "factIndexer" "chainReader" }}
{{- $v := index $.Values $key }}
{{- if $v.enabled }}
{{- $c := deepCopy (index $table $key) }}
{{- $_ := set $c "key" $key }}
{{- $_ := set $c "fullname" (printf "%s-%s" (include "lineage.fullname" $) $c.name | trunc 63 | trimSuffix "-") }}
{{- $_ := set $c "values" $v }}
{{- $out = append $out $c }}
{{- end }}
{{- end }}
{{- toJson $out }}
{{- end }}

{{/* Labels on every resource of a component. dict root, c */}}
{{- define "lineage.labels" -}}
helm.sh/chart: {{ include "lineage.chart" .root }}
{{ include "lineage.selectorLabels" . }}
app.kubernetes.io/part-of: lineage
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- with .root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Selector labels of a component. dict root, c (c may carry only "name"). */}}
{{- define "lineage.selectorLabels" -}}
app.kubernetes.io/name: {{ include "lineage.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .c.name }}
{{- end }}

{{/* Labels selecting every pod of the release. */}}
{{- define "lineage.releaseSelectorLabels" -}}
app.kubernetes.io/name: {{ include "lineage.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Image of a component: <repository>-<name>[:tag|@digest]. dict root, c */}}
{{- define "lineage.image" -}}
{{- $img := .root.Values.image }}
{{- if $img.digest }}
{{- printf "%s-%s@%s" $img.repository .c.name $img.digest }}
{{- else }}
{{- printf "%s-%s:%s" $img.repository .c.name (default .root.Chart.AppVersion $img.tag) }}
{{- end }}
{{- end }}

{{/* Secret holding a component's secrets. dict root, c */}}
{{- define "lineage.secretName" -}}
{{- coalesce .c.values.existingSecret .root.Values.secrets.existingSecret (include "lineage.fullname" .root) }}
{{- end }}

{{/* True when an autoscaler (HPA or KEDA) owns the replica count. dict root, c */}}
{{- define "lineage.autoscaled" -}}
{{- $v := .c.values }}
{{- if or $v.autoscaling.enabled (and (hasKey $v "keda") $v.keda.enabled) }}true{{ end }}
{{- end }}

{{/*
Grace period: the preStop sleep, then the service's own drain budget, plus a
5 s margin for process exit. An explicit value below that is refused.
dict root, c
*/}}
{{- define "lineage.gracePeriod" -}}
{{- $v := .c.values }}
{{- $min := add (int .root.Values.preStopSleepSeconds) (div (add (int64 $v.shutdownTimeoutMs) 999) 1000) 5 }}
{{- if kindIs "invalid" $v.terminationGracePeriodSeconds }}
{{- $min }}
{{- else if lt (int64 $v.terminationGracePeriodSeconds) (int64 $min) }}
{{- fail (printf "%s.terminationGracePeriodSeconds (%d) must be at least preStopSleepSeconds + shutdownTimeoutMs/1000 + 5 = %d" .c.key (int64 $v.terminationGracePeriodSeconds) (int64 $min)) }}
{{- else }}
{{- int64 $v.terminationGracePeriodSeconds }}
{{- end }}
{{- end }}

{{/*
Non-secret environment of a component, as ConfigMap data. Its checksum rolls
the pods when it changes. dict root, c
*/}}
{{- define "lineage.configData" -}}
{{- $root := .root }}
{{- $v := .c.values }}
NODE_ENV: production
HTTP_PORT: {{ .c.port | quote }}
# The services listen on loopback unless told otherwise; in a pod, every interface.
HTTP_HOST: "0.0.0.0"
NATS_URL: {{ $root.Values.nats.url | quote }}
NATS_REQUEST_TIMEOUT_MS: {{ int64 $root.Values.nats.requestTimeoutMs | quote }}
LOG_LEVEL: {{ default $root.Values.logLevel $v.logLevel | quote }}
SHUTDOWN_TIMEOUT_MS: {{ int64 $v.shutdownTimeoutMs | quote }}
{{- if .c.schema }}
DATABASE_POOL_MAX: {{ int64 $root.Values.postgresql.poolMax | quote }}
# Migrations run as a Helm hook Job, never at start.
MIGRATE_ON_START: "false"
{{- end }}
{{- if eq .c.key "gateway" }}
AUTH_REQUIRED: {{ $v.auth.required | quote }}
RATE_LIMIT_ENABLED: {{ $v.rateLimit.enabled | quote }}
RATE_LIMIT_PER_SECOND: {{ int64 $v.rateLimit.perSecond | quote }}
RATE_LIMIT_BURST: {{ int64 $v.rateLimit.burst | quote }}
TRUST_PROXY: {{ int64 $v.trustProxy | quote }}
{{- with $v.publicBaseUrl }}
PUBLIC_BASE_URL: {{ . | quote }}
{{- end }}
{{- else if eq .c.key "analysisPipeline" }}
HOME: /tmp
REPO_CACHE_DIR: {{ $v.cache.mountPath | quote }}
REPO_CACHE_MAX_BYTES: {{ int64 $v.cache.maxBytes | quote }}
LINEAGE_REPO_ALLOWED_HOSTS: {{ join "," $v.repoAllowedHosts | quote }}
WORKER_CONCURRENCY: {{ int64 $v.workerConcurrency | quote }}
JOB_ACK_WAIT_MS: {{ int64 $v.jobAckWaitMs | quote }}
PIPELINE_MAX_QUEUED: {{ int64 $v.maxQueued | quote }}
ANALYSIS_MAX_FILES: {{ int64 $v.limits.maxFiles | quote }}
ANALYSIS_MAX_FILE_BYTES: {{ int64 $v.limits.maxFileBytes | quote }}
ANALYSIS_MAX_TOTAL_BYTES: {{ int64 $v.limits.maxTotalBytes | quote }}
ANALYSIS_MAX_COMMITS: {{ int64 $v.limits.maxCommits | quote }}
ANALYSIS_TIMEOUT_MS: {{ int64 $v.limits.timeoutMs | quote }}
{{- else if eq .c.key "factIndexer" }}
INDEXER_POLL_INTERVAL_MS: {{ int64 $v.pollIntervalMs | quote }}
INDEXER_BATCH_BLOCKS: {{ int64 $v.batchBlocks | quote }}
{{- else if eq .c.key "chainReader" }}
CHAIN_ID: {{ int64 $v.chainId | quote }}
REGISTRY_ADDRESS: {{ $v.registryAddress | quote }}
REGISTRY_DEPLOYED_BLOCK: {{ int64 $v.registryDeployedBlock | quote }}
RPC_TIMEOUT_MS: {{ int64 $v.rpcTimeoutMs | quote }}
{{- end }}
{{- end }}

{{/* Secret-backed environment of a component (never inlined). dict root, c */}}
{{- define "lineage.secretEnv" -}}
{{- $root := .root }}
{{- $secret := include "lineage.secretName" . }}
{{- $keys := $root.Values.secrets.keys }}
{{- if .c.databaseKey }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ index $keys .c.databaseKey }}
{{- end }}
{{- if has .c.key (list "caseStore" "factIndexer") }}
- name: CURSOR_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ $keys.cursorSecret }}
{{- end }}
{{- if eq .c.key "chainReader" }}
- name: RPC_URL
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ $keys.rpcUrl }}
{{- end }}
{{- if eq .c.key "gateway" }}
- name: API_KEY_HASHES
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ $keys.apiKeyHashes }}
      optional: {{ not .c.values.auth.required }}
{{- end }}
{{- end }}

{{/*
Checks across values that the JSON schema cannot express. Rendering fails
with a message naming the value to fix.
*/}}
{{- define "lineage.validate" -}}
{{- $secretNames := list "DATABASE_URL" "RPC_URL" "API_KEY_HASHES" "CURSOR_SECRET" }}
{{- range $c := include "lineage.components" . | fromJsonArray }}
{{- $v := $c.values }}
{{- if and $v.autoscaling.enabled (hasKey $v "keda") $v.keda.enabled }}
{{- fail (printf "%s: enable autoscaling or keda, not both (KEDA creates its own HorizontalPodAutoscaler)" $c.key) }}
{{- end }}
{{- if gt (int64 $v.autoscaling.minReplicas) (int64 $v.autoscaling.maxReplicas) }}
{{- fail (printf "%s.autoscaling.minReplicas must not exceed maxReplicas" $c.key) }}
{{- end }}
{{- if and (hasKey $v "keda") (gt (int64 $v.keda.minReplicaCount) (int64 $v.keda.maxReplicaCount)) }}
{{- fail (printf "%s.keda.minReplicaCount must not exceed maxReplicaCount" $c.key) }}
{{- end }}
{{- range $e := $v.extraEnv }}
{{- if and (has $e.name $secretNames) (hasKey $e "value") }}
{{- fail (printf "%s.extraEnv: %s is a secret; reference it with valueFrom.secretKeyRef, never a literal value" $c.key $e.name) }}
{{- end }}
{{- end }}
{{- $_ := include "lineage.gracePeriod" (dict "root" $ "c" $c) }}
{{- end }}
{{- end }}
