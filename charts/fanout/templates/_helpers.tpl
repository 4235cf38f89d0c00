{{/*
Names. Kubernetes caps most names, and every label value, at 63 characters.
"fanout.shortenTo" keeps a name that fits in the given length, and cuts a
longer one to fit, ending in "-" and 8 hex characters of the SHA-256 of the
whole name, so two long names that share a prefix stay distinct.
Usage: include "fanout.shortenTo" (list "some-name" 63)
*/}}
{{- define "fanout.shortenTo" -}}
{{- $name := index . 0 -}}
{{- $max := int (index . 1) -}}
{{- if le (len $name) $max -}}
{{- $name -}}
{{- else -}}
{{- printf "%s-%s" (trunc (int (sub $max 9)) $name | trimSuffix "-") (sha256sum $name | trunc 8) -}}
{{- end -}}
{{- end -}}

{{- define "fanout.shorten" -}}
{{- include "fanout.shortenTo" (list . 63) -}}
{{- end -}}

{{/*
Always the chart's name: the executor's NetworkPolicy lets runners reach the
pods labelled app.kubernetes.io/name=fanout, app.kubernetes.io/component=api.
*/}}
{{- define "fanout.name" -}}
{{- .Chart.Name -}}
{{- end -}}

{{/* <release>-fanout, or the release name when it already says fanout. */}}
{{- define "fanout.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- include "fanout.shorten" .Values.fullnameOverride -}}
{{- else -}}
{{- $name := .Chart.Name -}}
{{- if contains $name .Release.Name -}}
{{- include "fanout.shorten" .Release.Name -}}
{{- else -}}
{{- include "fanout.shorten" (printf "%s-%s" .Release.Name $name) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/*
A component's name: <fullname>-<component>, at most 63 characters.
Usage: include "fanout.componentName" (list . "scheduler")
*/}}
{{- define "fanout.componentName" -}}
{{- $root := index . 0 -}}
{{- $component := index . 1 -}}
{{- printf "%s-%s" (include "fanout.shortenTo" (list (include "fanout.fullname" $root) (sub 62 (len $component)))) $component -}}
{{- end -}}

{{/*
Cluster-scoped objects (ClusterRole, ClusterRoleBinding) are shared by every
namespace: the release namespace is part of their name, so two releases of
the same name in two namespaces do not overwrite each other's.
*/}}
{{- define "fanout.clusterName" -}}
{{- $root := index . 0 -}}
{{- $component := index . 1 -}}
{{- printf "%s-%s" (include "fanout.shortenTo" (list (printf "%s-%s" $root.Release.Namespace (include "fanout.fullname" $root)) (sub 62 (len $component)))) $component -}}
{{- end -}}

{{- define "fanout.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* A valid label value: at most 63 characters of [A-Za-z0-9._-], alphanumeric at both ends. */}}
{{- define "fanout.labelValue" -}}
{{- regexReplaceAll "[^A-Za-z0-9._-]" (toString .) "_" | trunc 63 | trimAll "._-" -}}
{{- end -}}

{{/* Labels of every object. Usage: include "fanout.labels" (list . "api") */}}
{{- define "fanout.labels" -}}
{{- $root := index . 0 -}}
helm.sh/chart: {{ include "fanout.chart" $root }}
{{ include "fanout.selectorLabels" . }}
app.kubernetes.io/version: {{ include "fanout.labelValue" (default $root.Chart.AppVersion $root.Values.image.tag) | quote }}
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
app.kubernetes.io/part-of: fanout
{{- end -}}

{{/*
What a Service or a Deployment selects pods by: the component is part of
it, so the API Service never routes to a scheduler pod.
*/}}
{{- define "fanout.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: {{ include "fanout.name" $root }}
app.kubernetes.io/instance: {{ include "fanout.labelValue" $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{/* An image reference: repository@digest when a digest is given, else repository:tag. */}}
{{- define "fanout.imageRef" -}}
{{- $image := index . 0 -}}
{{- $root := index . 1 -}}
{{- if $image.digest -}}
{{- printf "%s@%s" $image.repository $image.digest -}}
{{- else -}}
{{- printf "%s:%s" $image.repository (default $root.Chart.AppVersion $image.tag) -}}
{{- end -}}
{{- end -}}

{{- define "fanout.apiServiceAccountName" -}}
{{- if .Values.api.serviceAccount.create -}}
{{- default (include "fanout.componentName" (list . "api")) .Values.api.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.api.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "fanout.schedulerServiceAccountName" -}}
{{- if .Values.scheduler.serviceAccount.create -}}
{{- default (include "fanout.componentName" (list . "scheduler")) .Values.scheduler.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.scheduler.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The executor's leader-election Lease, in the namespace it runs in (libs/engine kubernetes executor). */}}
{{- define "fanout.leaseName" -}}
fanout-scheduler
{{- end -}}

{{/* The URL runners call back: config.publicUrl, else the API Service in the cluster. */}}
{{- define "fanout.publicUrl" -}}
{{- if .Values.config.publicUrl -}}
{{- .Values.config.publicUrl -}}
{{- else -}}
{{- printf "http://%s.%s.svc.%s:%d" (include "fanout.componentName" (list . "api")) .Release.Namespace .Values.config.clusterDomain (int .Values.service.port) -}}
{{- end -}}
{{- end -}}

{{/*
The environment every process of the platform reads (libs/config): the
database, the application secrets, Stripe and the shared settings. Secret
values only ever come from Secrets (secretKeyRef), never from values.
*/}}
{{- define "fanout.commonEnv" -}}
- name: NODE_ENV
  value: production
- name: FANOUT_HOME
  value: /tmp/fanout
- name: LOG_LEVEL
  value: {{ .Values.config.logLevel | quote }}
{{- if .Values.database.host }}
- name: FANOUT_DB_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .Values.database.existingSecret }}
      key: {{ .Values.database.passwordKey }}
{{- /* $(FANOUT_DB_PASSWORD) is expanded by the kubelet from the variable above. */}}
- name: DATABASE_URL
  value: {{ printf "postgresql://%s:$(FANOUT_DB_PASSWORD)@%s:%d/%s%s" .Values.database.user .Values.database.host (int .Values.database.port) .Values.database.name (ternary (printf "?sslmode=%s" .Values.database.sslmode) "" (ne .Values.database.sslmode "")) | quote }}
{{- else }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ .Values.database.existingSecret }}
      key: {{ .Values.database.urlKey }}
{{- end }}
- name: JWT_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ .Values.appSecrets.existingSecret }}
      key: {{ .Values.appSecrets.jwtSecretKey }}
- name: FANOUT_SECRETS_KEY
  valueFrom:
    secretKeyRef:
      name: {{ .Values.appSecrets.existingSecret }}
      key: {{ .Values.appSecrets.secretsKeyKey }}
{{- if .Values.stripe.enabled }}
- name: STRIPE_SECRET_KEY
  valueFrom:
    secretKeyRef:
      name: {{ default .Values.appSecrets.existingSecret .Values.stripe.existingSecret }}
      key: {{ .Values.stripe.secretKeyKey }}
{{- if .Values.stripe.webhookSecretKey }}
- name: STRIPE_WEBHOOK_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ default .Values.appSecrets.existingSecret .Values.stripe.existingSecret }}
      key: {{ .Values.stripe.webhookSecretKey }}
{{- end }}
- name: STRIPE_METER_EVENT_NAME
  value: {{ .Values.stripe.meterEventName | quote }}
{{- if .Values.stripe.apiUrl }}
- name: STRIPE_API_URL
  value: {{ .Values.stripe.apiUrl | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Settings of the long-running processes (API and scheduler), then config.extraEnv. */}}
{{- define "fanout.serviceEnv" -}}
- name: FANOUT_PUBLIC_URL
  value: {{ include "fanout.publicUrl" . | quote }}
- name: FANOUT_DEMO
  value: {{ .Values.config.demo | quote }}
- name: FANOUT_MAX_ATTEMPTS
  value: {{ .Values.config.maxAttempts | quote }}
- name: FANOUT_RETRY_BACKOFF_SECONDS
  value: {{ .Values.config.retryBackoffSeconds | quote }}
- name: FANOUT_ACCESS_TOKEN_TTL_SECONDS
  value: {{ .Values.config.accessTokenTtlSeconds | quote }}
- name: FANOUT_AUTH_RATE_LIMIT
  value: {{ .Values.config.authRateLimit | quote }}
{{- with .Values.config.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/*
A container's env, rendered, checked: a variable set twice is refused (the
kubelet would keep the last one silently, and `helm upgrade` patches lists
by name). extraEnv adds variables; it does not replace the chart's.
Usage: include "fanout.env" (list $envText "api.extraEnv")
*/}}
{{- define "fanout.env" -}}
{{- $text := index . 0 -}}
{{- $where := index . 1 -}}
{{- $seen := dict -}}
{{- range (fromYamlArray $text) -}}
{{- if hasKey $seen .name -}}
{{- fail (printf "%s: the environment variable %s is set twice (config.extraEnv, %s, or the chart itself sets it): set it once, through its own value when the chart has one" $where .name $where) -}}
{{- end -}}
{{- $_ := set $seen .name true -}}
{{- end -}}
{{- $text -}}
{{- end -}}

{{/* The /tmp emptyDir: the only writable path under a read-only root filesystem. */}}
{{- define "fanout.tmpVolume" -}}
- name: tmp
  emptyDir:
    sizeLimit: {{ .Values.tmpSizeLimit }}
{{- end -}}
