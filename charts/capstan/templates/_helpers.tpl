{{- define "capstan.name" -}}capstan{{- end -}}

{{/* "capstan" for a release named capstan (or containing it), else "<release>-capstan". */}}
{{- define "capstan.fullname" -}}
{{- if contains "capstan" .Release.Name -}}{{ .Release.Name | trunc 50 | trimSuffix "-" }}{{- else -}}{{ printf "%s-capstan" .Release.Name | trunc 50 | trimSuffix "-" }}{{- end -}}
{{- end -}}

{{/* The names config/default (kustomize) gives the same objects: <fullname>-manager, ... */}}
{{- define "capstan.manager" -}}{{ include "capstan.fullname" . }}-manager{{- end -}}
{{- define "capstan.webhookService" -}}{{ include "capstan.fullname" . }}-webhook-service{{- end -}}
{{- define "capstan.webhookSecret" -}}
{{- .Values.webhook.existingSecret | default (printf "%s-webhook-server-cert" (include "capstan.fullname" .)) -}}
{{- end -}}

{{- define "capstan.labels" -}}
app.kubernetes.io/name: capstan
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "capstan.selector" -}}
app.kubernetes.io/name: capstan
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: manager
{{- end -}}

{{/* The enabled controllers' names, in the order of values.yaml's keys (sorted). */}}
{{- define "capstan.enabledControllers" -}}
{{- range $name, $c := .Values.controllers -}}{{- if $c.enabled }}{{ $name }} {{ end -}}{{- end -}}
{{- end -}}

{{/* The --controllers flag: every chart-known controller, enabled or disabled explicitly. */}}
{{- define "capstan.controllersFlag" -}}
{{- $items := list -}}
{{- range $name, $c := .Values.controllers -}}
{{- if $c.enabled -}}{{- $items = append $items $name -}}{{- else -}}{{- $items = append $items (printf "-%s" $name) -}}{{- end -}}
{{- end -}}
{{- join "," $items -}}
{{- end -}}

{{/* A webhook's clientConfig (called by the generated capstan.webhooks.<controller> templates
     with the dict made in webhook.yaml as "hooks" and the webhook's "path"). */}}
{{- define "capstan.webhookClientConfig" -}}
{{- $h := .hooks -}}
{{- if $h.urlHost }}
url: https://{{ $h.urlHost }}{{ .path }}
{{- else }}
service:
  namespace: {{ $h.namespace }}
  name: {{ $h.service }}
  path: {{ .path }}
  port: 443
{{- end }}
{{- with $h.caBundle }}
caBundle: {{ . }}
{{- end }}
{{- end -}}
