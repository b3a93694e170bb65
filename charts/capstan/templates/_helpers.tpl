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

{{/* A map of labels as a --*-labels flag takes them: k=v,k2=v2 (sorted by key). */}}
{{- define "capstan.labelsFlag" -}}
{{- $parts := list -}}
{{- range $k, $v := . }}{{ $parts = append $parts (printf "%s=%s" $k $v) }}{{ end -}}
{{- join "," $parts -}}
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

{{/* Everything a webhook's clientConfig and configuration take, as JSON: fullname, service,
     namespace, caBundle, injectFrom, urlHost, failurePolicy, timeoutSeconds, and tls (the
     Secret's crt, key and ca when the chart makes the certificate). The certificate is made once
     per render (kept in .Values._capstanWebhook), so webhook.yaml and the CRD templates' conversion
     webhooks share one CA; an upgrade reads the Secret back (lookup) and keeps it. */}}
{{- define "capstan.webhookHooks" -}}
{{- if not (hasKey .Values "_capstanWebhook") -}}
{{- $fullname := include "capstan.fullname" . -}}
{{- $service := include "capstan.webhookService" . -}}
{{- $secretName := include "capstan.webhookSecret" . -}}
{{- $existing := lookup "v1" "Secret" .Release.Namespace $secretName -}}
{{- $existingData := dict -}}
{{- if $existing }}{{- $existingData = $existing.data | default dict -}}{{- end }}
{{- $caBundle := index $existingData "ca.crt" | default "" -}}
{{- $injectFrom := "" -}}
{{- $tls := dict -}}
{{- if .Values.webhook.managerCertificate }}
{{- if .Values.webhook.existingSecret }}{{ fail "webhook.managerCertificate and webhook.existingSecret exclude each other: the manager would rewrite your Secret" }}{{ end }}
{{- $caBundle = "" -}}
{{- $injectFrom = printf "%s/%s" .Release.Namespace $secretName -}}
{{- else if not .Values.webhook.existingSecret }}
{{- if and (index $existingData "tls.crt") (index $existingData "tls.key") $caBundle }}
{{- $tls = dict "crt" (index $existingData "tls.crt") "key" (index $existingData "tls.key") "ca" $caBundle -}}
{{- else }}
{{- $days := int .Values.webhook.caValidityDays -}}
{{- $dns := list (printf "%s.%s.svc" $service .Release.Namespace) (printf "%s.%s.svc.cluster.local" $service .Release.Namespace) -}}
{{- $ips := list -}}
{{- with .Values.webhook.url.host }}
{{- $host := regexReplaceAll ":[0-9]+$" . "" -}}
{{- if regexMatch "^[0-9.]+$" $host }}{{ $ips = append $ips $host }}{{ else }}{{ $dns = append $dns $host }}{{ end }}
{{- end }}
{{- $ca := genCA (printf "%s-webhook-ca" $fullname) $days -}}
{{- $cert := genSignedCert (first $dns) $ips $dns $days $ca -}}
{{- $tls = dict "crt" ($cert.Cert | b64enc) "key" ($cert.Key | b64enc) "ca" ($ca.Cert | b64enc) -}}
{{- end }}
{{- $caBundle = $tls.ca }}
{{- end }}
{{- $_ := set .Values "_capstanWebhook" (dict "fullname" $fullname "service" $service "namespace" .Release.Namespace "caBundle" $caBundle "injectFrom" $injectFrom "urlHost" .Values.webhook.url.host "failurePolicy" .Values.webhook.failurePolicy "timeoutSeconds" .Values.webhook.timeoutSeconds "tls" $tls) -}}
{{- end -}}
{{- toJson .Values._capstanWebhook -}}
{{- end -}}

{{/* A webhook's clientConfig (called by the generated capstan.webhooks.<controller> templates
     with capstan.webhookHooks as "hooks" and the webhook's "path"). */}}
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
