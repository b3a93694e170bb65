{{- define "capstan.name" -}}capstan{{- end -}}

{{- define "capstan.fullname" -}}
{{- if contains "capstan" .Release.Name -}}{{ .Release.Name | trunc 63 | trimSuffix "-" }}{{- else -}}{{ printf "%s-capstan" .Release.Name | trunc 63 | trimSuffix "-" }}{{- end -}}
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
{{- end -}}

{{/* The --controllers flag: every chart-known controller, enabled or disabled explicitly. */}}
{{- define "capstan.controllersFlag" -}}
{{- $items := list -}}
{{- range $name, $on := .Values.controllers -}}
{{- if $on -}}{{- $items = append $items $name -}}{{- else -}}{{- $items = append $items (printf "-%s" $name) -}}{{- end -}}
{{- end -}}
{{- join "," $items -}}
{{- end -}}

{{- define "capstan.webhookSecret" -}}
{{- if .Values.webhook.existingSecret -}}{{ .Values.webhook.existingSecret }}{{- else -}}{{ include "capstan.fullname" . }}-webhook-cert{{- end -}}
{{- end -}}
