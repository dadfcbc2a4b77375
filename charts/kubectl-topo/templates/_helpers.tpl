{{/* The chart's name, or nameOverride. */}}
{{- define "kubectl-topo.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The prefix of every object's name: the release name when it already holds the chart name. */}}
{{- define "kubectl-topo.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- $name := include "kubectl-topo.name" . -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "kubectl-topo.exporter" -}}
{{- printf "%s-exporter" (include "kubectl-topo.fullname" .) -}}
{{- end -}}

{{- define "kubectl-topo.serviceAccountName" -}}
{{- default (include "kubectl-topo.exporter" .) .Values.serviceAccount.name -}}
{{- end -}}

{{/* What selects the exporter's Pods (Deployment, Service, ServiceMonitor, NetworkPolicy). */}}
{{- define "kubectl-topo.selectorLabels" -}}
app.kubernetes.io/name: {{ include "kubectl-topo.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: exporter
{{- end -}}

{{- define "kubectl-topo.labels" -}}
{{ include "kubectl-topo.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "kubectl-topo.image" -}}
{{- $repo := .Values.image.repository -}}
{{- if .Values.image.registry -}}
{{- $repo = printf "%s/%s" (trimSuffix "/" .Values.image.registry) $repo -}}
{{- end -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" $repo .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" $repo (default .Chart.AppVersion .Values.image.tag | toString) -}}
{{- end -}}
{{- end -}}
