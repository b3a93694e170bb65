// core/v1 (k8s.io/api/core/v1): ConfigMap, Secret, Namespace, Service, ServiceAccount, Pod and
// everything a PodSpec reaches, ResourceQuota, LimitRange, PersistentVolumeClaim, Endpoints.
//
// Every VolumeSource (the legacy in-tree plugins included) and the whole PodStatus are transcribed:
// the typed check (apiserver/typed) drops members no table knows, as the Go structs do.
#include "apiserver/protobuf/schema.h"

namespace capstan::apiserver::protobuf::schema {

#define CORE "k8s.io.api.core.v1."

// --- References ------------------------------------------------------------------------------------
PB_MESSAGE(kObjectReference, CORE "ObjectReference",
           str(1, "kind"), str(2, "namespace"), str(3, "name"), str(4, "uid"), str(5, "apiVersion"),
           str(6, "resourceVersion"), str(7, "fieldPath"));
PB_MESSAGE(kLocalObjectReference, CORE "LocalObjectReference", str(1, "name"));
PB_MESSAGE(kTypedLocalObjectReference, CORE "TypedLocalObjectReference",
           str(1, "apiGroup", kKeepZero), str(2, "kind", kKeepZero), str(3, "name", kKeepZero));
PB_MESSAGE(kTypedObjectReference, CORE "TypedObjectReference",
           str(1, "apiGroup", kKeepZero), str(2, "kind", kKeepZero), str(3, "name", kKeepZero),
           str(4, "namespace", kKeepZero));

// --- ConfigMap, Secret, Namespace, ServiceAccount ----------------------------------------------------
PB_MESSAGE(kConfigMap, CORE "ConfigMap",
           msg(1, "metadata", kObjectMeta, kValue),
           boolean(4, "immutable", kKeepZero),
           map_of(str(2, "data")),
           map_of(bytes(3, "binaryData")));

PB_MESSAGE(kSecret, CORE "Secret",
           msg(1, "metadata", kObjectMeta, kValue),
           boolean(5, "immutable", kKeepZero),
           map_of(bytes(2, "data")),
           map_of(str(4, "stringData")),
           str(3, "type"));

PB_MESSAGE(kNamespaceSpec, CORE "NamespaceSpec", list(str(1, "finalizers")));
PB_MESSAGE(kNamespaceCondition, CORE "NamespaceCondition",
           str(1, "type", kKeepZero), str(2, "status", kKeepZero), msg(4, "lastTransitionTime", kTime),
           str(5, "reason"), str(6, "message"));
PB_MESSAGE(kNamespaceStatus, CORE "NamespaceStatus",
           str(1, "phase"), list(msg(2, "conditions", kNamespaceCondition)));
PB_MESSAGE(kNamespace, CORE "Namespace",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kNamespaceSpec, kValue), msg(3, "status", kNamespaceStatus, kValue));

PB_MESSAGE(kServiceAccount, CORE "ServiceAccount",
           msg(1, "metadata", kObjectMeta, kValue),
           list(msg(2, "secrets", kObjectReference)),
           list(msg(3, "imagePullSecrets", kLocalObjectReference)),
           boolean(4, "automountServiceAccountToken", kKeepZero));

// --- Service -----------------------------------------------------------------------------------------
PB_MESSAGE(kServicePort, CORE "ServicePort",
           str(1, "name"),
           str(2, "protocol"),
           str(6, "appProtocol", kKeepZero),
           i32(3, "port", kKeepZero),
           msg(4, "targetPort", kIntOrString),
           i32(5, "nodePort"));
PB_MESSAGE(kClientIPConfig, CORE "ClientIPConfig", i32(1, "timeoutSeconds", kKeepZero));
PB_MESSAGE(kSessionAffinityConfig, CORE "SessionAffinityConfig", msg(1, "clientIP", kClientIPConfig));
PB_MESSAGE(kServiceSpec, CORE "ServiceSpec",
           list(msg(1, "ports", kServicePort)),
           map_of(str(2, "selector")),
           str(3, "clusterIP"),
           list(str(18, "clusterIPs")),
           str(4, "type"),
           list(str(5, "externalIPs")),
           str(7, "sessionAffinity"),
           str(8, "loadBalancerIP"),
           list(str(9, "loadBalancerSourceRanges")),
           str(10, "externalName"),
           str(11, "externalTrafficPolicy"),
           i32(12, "healthCheckNodePort"),
           boolean(13, "publishNotReadyAddresses"),
           msg(14, "sessionAffinityConfig", kSessionAffinityConfig),
           list(str(19, "ipFamilies")),
           str(17, "ipFamilyPolicy", kKeepZero),
           boolean(20, "allocateLoadBalancerNodePorts", kKeepZero),
           str(21, "loadBalancerClass", kKeepZero),
           str(22, "internalTrafficPolicy", kKeepZero),
           str(23, "trafficDistribution", kKeepZero));
PB_MESSAGE(kPortStatus, CORE "PortStatus",
           i32(1, "port", kKeepZero), str(2, "protocol", kKeepZero), str(3, "error", kKeepZero));
PB_MESSAGE(kLoadBalancerIngress, CORE "LoadBalancerIngress",
           str(1, "ip"), str(2, "hostname"), str(3, "ipMode", kKeepZero), list(msg(4, "ports", kPortStatus)));
PB_MESSAGE(kLoadBalancerStatus, CORE "LoadBalancerStatus", list(msg(1, "ingress", kLoadBalancerIngress)));
PB_MESSAGE(kServiceStatus, CORE "ServiceStatus",
           msg(1, "loadBalancer", kLoadBalancerStatus, kValue), list(msg(2, "conditions", kCondition)));
PB_MESSAGE(kService, CORE "Service",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kServiceSpec, kValue), msg(3, "status", kServiceStatus, kValue));

// --- Container: environment, resources, mounts, probes, security ------------------------------------
PB_MESSAGE(kContainerPort, CORE "ContainerPort",
           str(1, "name"), i32(2, "hostPort"), i32(3, "containerPort", kKeepZero), str(4, "protocol"),
           str(5, "hostIP"));

PB_MESSAGE(kConfigMapEnvSource, CORE "ConfigMapEnvSource",
           inlined(1, kLocalObjectReference), boolean(2, "optional", kKeepZero));
PB_MESSAGE(kSecretEnvSource, CORE "SecretEnvSource",
           inlined(1, kLocalObjectReference), boolean(2, "optional", kKeepZero));
PB_MESSAGE(kEnvFromSource, CORE "EnvFromSource",
           str(1, "prefix"), msg(2, "configMapRef", kConfigMapEnvSource), msg(3, "secretRef", kSecretEnvSource));

PB_MESSAGE(kObjectFieldSelector, CORE "ObjectFieldSelector",
           str(1, "apiVersion"), str(2, "fieldPath", kKeepZero));
PB_MESSAGE(kResourceFieldSelector, CORE "ResourceFieldSelector",
           str(1, "containerName"), str(2, "resource", kKeepZero), msg(3, "divisor", kQuantity));
PB_MESSAGE(kConfigMapKeySelector, CORE "ConfigMapKeySelector",
           inlined(1, kLocalObjectReference), str(2, "key", kKeepZero), boolean(3, "optional", kKeepZero));
PB_MESSAGE(kSecretKeySelector, CORE "SecretKeySelector",
           inlined(1, kLocalObjectReference), str(2, "key", kKeepZero), boolean(3, "optional", kKeepZero));
PB_MESSAGE(kEnvVarSource, CORE "EnvVarSource",
           msg(1, "fieldRef", kObjectFieldSelector),
           msg(2, "resourceFieldRef", kResourceFieldSelector),
           msg(3, "configMapKeyRef", kConfigMapKeySelector),
           msg(4, "secretKeyRef", kSecretKeySelector));
PB_MESSAGE(kEnvVar, CORE "EnvVar",
           str(1, "name", kKeepZero), str(2, "value"), msg(3, "valueFrom", kEnvVarSource));

PB_MESSAGE(kResourceClaim, CORE "ResourceClaim", str(1, "name", kKeepZero), str(2, "request"));
PB_MESSAGE(kResourceRequirements, CORE "ResourceRequirements",
           map_of(msg(1, "limits", kQuantity)),
           map_of(msg(2, "requests", kQuantity)),
           list(msg(3, "claims", kResourceClaim)));
PB_MESSAGE(kContainerResizePolicy, CORE "ContainerResizePolicy",
           str(1, "resourceName", kKeepZero), str(2, "restartPolicy", kKeepZero));

PB_MESSAGE(kVolumeMount, CORE "VolumeMount",
           str(1, "name", kKeepZero),
           boolean(2, "readOnly"),
           str(7, "recursiveReadOnly", kKeepZero),
           str(3, "mountPath", kKeepZero),
           str(4, "subPath"),
           str(5, "mountPropagation", kKeepZero),
           str(6, "subPathExpr"));
PB_MESSAGE(kVolumeDevice, CORE "VolumeDevice", str(1, "name", kKeepZero), str(2, "devicePath", kKeepZero));

PB_MESSAGE(kExecAction, CORE "ExecAction", list(str(1, "command")));
PB_MESSAGE(kHTTPHeader, CORE "HTTPHeader", str(1, "name", kKeepZero), str(2, "value", kKeepZero));
PB_MESSAGE(kHTTPGetAction, CORE "HTTPGetAction",
           str(1, "path"), msg(2, "port", kIntOrString), str(3, "host"), str(4, "scheme"),
           list(msg(5, "httpHeaders", kHTTPHeader)));
PB_MESSAGE(kTCPSocketAction, CORE "TCPSocketAction", msg(1, "port", kIntOrString), str(2, "host"));
PB_MESSAGE(kGRPCAction, CORE "GRPCAction", i32(1, "port", kKeepZero), str(2, "service", kKeepZero));
PB_MESSAGE(kSleepAction, CORE "SleepAction", i64(1, "seconds", kKeepZero));
PB_MESSAGE(kProbeHandler, CORE "ProbeHandler",
           msg(1, "exec", kExecAction), msg(2, "httpGet", kHTTPGetAction), msg(3, "tcpSocket", kTCPSocketAction),
           msg(4, "grpc", kGRPCAction));
PB_MESSAGE(kProbe, CORE "Probe",
           inlined(1, kProbeHandler),
           i32(2, "initialDelaySeconds"),
           i32(3, "timeoutSeconds"),
           i32(4, "periodSeconds"),
           i32(5, "successThreshold"),
           i32(6, "failureThreshold"),
           i64(7, "terminationGracePeriodSeconds", kKeepZero));
PB_MESSAGE(kLifecycleHandler, CORE "LifecycleHandler",
           msg(1, "exec", kExecAction), msg(2, "httpGet", kHTTPGetAction), msg(3, "tcpSocket", kTCPSocketAction),
           msg(4, "sleep", kSleepAction));
PB_MESSAGE(kLifecycle, CORE "Lifecycle",
           msg(1, "postStart", kLifecycleHandler), msg(2, "preStop", kLifecycleHandler));

PB_MESSAGE(kCapabilities, CORE "Capabilities", list(str(1, "add")), list(str(2, "drop")));
PB_MESSAGE(kSELinuxOptions, CORE "SELinuxOptions",
           str(1, "user"), str(2, "role"), str(3, "type"), str(4, "level"));
PB_MESSAGE(kWindowsSecurityContextOptions, CORE "WindowsSecurityContextOptions",
           str(1, "gmsaCredentialSpecName", kKeepZero), str(2, "gmsaCredentialSpec", kKeepZero),
           str(3, "runAsUserName", kKeepZero), boolean(4, "hostProcess", kKeepZero));
PB_MESSAGE(kSeccompProfile, CORE "SeccompProfile",
           str(1, "type", kKeepZero), str(2, "localhostProfile", kKeepZero));
PB_MESSAGE(kAppArmorProfile, CORE "AppArmorProfile",
           str(1, "type", kKeepZero), str(2, "localhostProfile", kKeepZero));
PB_MESSAGE(kSecurityContext, CORE "SecurityContext",
           msg(1, "capabilities", kCapabilities),
           boolean(2, "privileged", kKeepZero),
           msg(3, "seLinuxOptions", kSELinuxOptions),
           msg(10, "windowsOptions", kWindowsSecurityContextOptions),
           i64(4, "runAsUser", kKeepZero),
           i64(8, "runAsGroup", kKeepZero),
           boolean(5, "runAsNonRoot", kKeepZero),
           boolean(6, "readOnlyRootFilesystem", kKeepZero),
           boolean(7, "allowPrivilegeEscalation", kKeepZero),
           str(9, "procMount", kKeepZero),
           msg(11, "seccompProfile", kSeccompProfile),
           msg(12, "appArmorProfile", kAppArmorProfile));

PB_MESSAGE(kContainer, CORE "Container",
           str(1, "name", kKeepZero),
           str(2, "image"),
           list(str(3, "command")),
           list(str(4, "args")),
           str(5, "workingDir"),
           list(msg(6, "ports", kContainerPort)),
           list(msg(19, "envFrom", kEnvFromSource)),
           list(msg(7, "env", kEnvVar)),
           msg(8, "resources", kResourceRequirements, kValue),
           list(msg(23, "resizePolicy", kContainerResizePolicy)),
           str(24, "restartPolicy", kKeepZero),
           list(msg(9, "volumeMounts", kVolumeMount)),
           list(msg(21, "volumeDevices", kVolumeDevice)),
           msg(10, "livenessProbe", kProbe),
           msg(11, "readinessProbe", kProbe),
           msg(22, "startupProbe", kProbe),
           msg(12, "lifecycle", kLifecycle),
           str(13, "terminationMessagePath"),
           str(20, "terminationMessagePolicy"),
           str(14, "imagePullPolicy"),
           msg(15, "securityContext", kSecurityContext),
           boolean(16, "stdin"),
           boolean(17, "stdinOnce"),
           boolean(18, "tty"));
// EphemeralContainerCommon has Container's field numbers and JSON names.
PB_MESSAGE(kEphemeralContainer, CORE "EphemeralContainer",
           inlined(1, kContainer), str(2, "targetContainerName"));

// --- Volumes -----------------------------------------------------------------------------------------
PB_MESSAGE(kKeyToPath, CORE "KeyToPath",
           str(1, "key", kKeepZero), str(2, "path", kKeepZero), i32(3, "mode", kKeepZero));
PB_MESSAGE(kHostPathVolumeSource, CORE "HostPathVolumeSource",
           str(1, "path", kKeepZero), str(2, "type", kKeepZero));
PB_MESSAGE(kEmptyDirVolumeSource, CORE "EmptyDirVolumeSource",
           str(1, "medium"), msg(2, "sizeLimit", kQuantity));
PB_MESSAGE(kSecretVolumeSource, CORE "SecretVolumeSource",
           str(1, "secretName"), list(msg(2, "items", kKeyToPath)), i32(3, "defaultMode", kKeepZero),
           boolean(4, "optional", kKeepZero));
PB_MESSAGE(kNFSVolumeSource, CORE "NFSVolumeSource",
           str(1, "server", kKeepZero), str(2, "path", kKeepZero), boolean(3, "readOnly"));
PB_MESSAGE(kPersistentVolumeClaimVolumeSource, CORE "PersistentVolumeClaimVolumeSource",
           str(1, "claimName", kKeepZero), boolean(2, "readOnly"));
PB_MESSAGE(kDownwardAPIVolumeFile, CORE "DownwardAPIVolumeFile",
           str(1, "path", kKeepZero), msg(2, "fieldRef", kObjectFieldSelector),
           msg(3, "resourceFieldRef", kResourceFieldSelector), i32(4, "mode", kKeepZero));
PB_MESSAGE(kDownwardAPIVolumeSource, CORE "DownwardAPIVolumeSource",
           list(msg(1, "items", kDownwardAPIVolumeFile)), i32(2, "defaultMode", kKeepZero));
PB_MESSAGE(kConfigMapVolumeSource, CORE "ConfigMapVolumeSource",
           inlined(1, kLocalObjectReference), list(msg(2, "items", kKeyToPath)), i32(3, "defaultMode", kKeepZero),
           boolean(4, "optional", kKeepZero));
PB_MESSAGE(kSecretProjection, CORE "SecretProjection",
           inlined(1, kLocalObjectReference), list(msg(2, "items", kKeyToPath)), boolean(4, "optional", kKeepZero));
PB_MESSAGE(kConfigMapProjection, CORE "ConfigMapProjection",
           inlined(1, kLocalObjectReference), list(msg(2, "items", kKeyToPath)), boolean(4, "optional", kKeepZero));
PB_MESSAGE(kDownwardAPIProjection, CORE "DownwardAPIProjection", list(msg(1, "items", kDownwardAPIVolumeFile)));
PB_MESSAGE(kServiceAccountTokenProjection, CORE "ServiceAccountTokenProjection",
           str(1, "audience"), i64(2, "expirationSeconds", kKeepZero), str(3, "path", kKeepZero));
PB_MESSAGE(kClusterTrustBundleProjection, CORE "ClusterTrustBundleProjection",
           str(1, "name", kKeepZero), str(2, "signerName", kKeepZero), msg(3, "labelSelector", kLabelSelector),
           boolean(4, "optional", kKeepZero), str(5, "path", kKeepZero));
PB_MESSAGE(kVolumeProjection, CORE "VolumeProjection",
           msg(1, "secret", kSecretProjection),
           msg(2, "downwardAPI", kDownwardAPIProjection),
           msg(3, "configMap", kConfigMapProjection),
           msg(4, "serviceAccountToken", kServiceAccountTokenProjection),
           msg(5, "clusterTrustBundle", kClusterTrustBundleProjection));
PB_MESSAGE(kProjectedVolumeSource, CORE "ProjectedVolumeSource",
           list(msg(1, "sources", kVolumeProjection, kKeepZero)), i32(2, "defaultMode", kKeepZero));
PB_MESSAGE(kCSIVolumeSource, CORE "CSIVolumeSource",
           str(1, "driver", kKeepZero), boolean(2, "readOnly", kKeepZero), str(3, "fsType", kKeepZero),
           map_of(str(4, "volumeAttributes")), msg(5, "nodePublishSecretRef", kLocalObjectReference));
PB_MESSAGE(kPersistentVolumeClaimTemplate, CORE "PersistentVolumeClaimTemplate",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kPersistentVolumeClaimSpec, kValue));
PB_MESSAGE(kEphemeralVolumeSource, CORE "EphemeralVolumeSource",
           msg(1, "volumeClaimTemplate", kPersistentVolumeClaimTemplate));
PB_MESSAGE(kImageVolumeSource, CORE "ImageVolumeSource", str(1, "reference"), str(2, "pullPolicy"));
// In-tree (legacy) volume plugins.
PB_MESSAGE(kGCEPersistentDiskVolumeSource, CORE "GCEPersistentDiskVolumeSource",
           str(1, "pdName", kKeepZero), str(2, "fsType"), i32(3, "partition"), boolean(4, "readOnly"));
PB_MESSAGE(kAWSElasticBlockStoreVolumeSource, CORE "AWSElasticBlockStoreVolumeSource",
           str(1, "volumeID", kKeepZero), str(2, "fsType"), i32(3, "partition"), boolean(4, "readOnly"));
PB_MESSAGE(kGitRepoVolumeSource, CORE "GitRepoVolumeSource",
           str(1, "repository", kKeepZero), str(2, "revision"), str(3, "directory"));
PB_MESSAGE(kISCSIVolumeSource, CORE "ISCSIVolumeSource",
           str(1, "targetPortal", kKeepZero), str(2, "iqn", kKeepZero), i32(3, "lun", kKeepZero),
           str(4, "iscsiInterface"), str(5, "fsType"), boolean(6, "readOnly"), list(str(7, "portals")),
           boolean(8, "chapAuthDiscovery"), boolean(11, "chapAuthSession"),
           msg(10, "secretRef", kLocalObjectReference), str(12, "initiatorName", kKeepZero));
PB_MESSAGE(kGlusterfsVolumeSource, CORE "GlusterfsVolumeSource",
           str(1, "endpoints", kKeepZero), str(2, "path", kKeepZero), boolean(3, "readOnly"));
PB_MESSAGE(kRBDVolumeSource, CORE "RBDVolumeSource",
           list(str(1, "monitors", kKeepZero)), str(2, "image", kKeepZero), str(3, "fsType"), str(4, "pool"), str(5, "user"),
           str(6, "keyring"), msg(7, "secretRef", kLocalObjectReference), boolean(8, "readOnly"));
PB_MESSAGE(kFlexVolumeSource, CORE "FlexVolumeSource",
           str(1, "driver", kKeepZero), str(2, "fsType"), msg(3, "secretRef", kLocalObjectReference),
           boolean(4, "readOnly"), map_of(str(5, "options")));
PB_MESSAGE(kCinderVolumeSource, CORE "CinderVolumeSource",
           str(1, "volumeID", kKeepZero), str(2, "fsType"), boolean(3, "readOnly"),
           msg(4, "secretRef", kLocalObjectReference));
PB_MESSAGE(kCephFSVolumeSource, CORE "CephFSVolumeSource",
           list(str(1, "monitors", kKeepZero)), str(2, "path"), str(3, "user"), str(4, "secretFile"),
           msg(5, "secretRef", kLocalObjectReference), boolean(6, "readOnly"));
PB_MESSAGE(kFlockerVolumeSource, CORE "FlockerVolumeSource", str(1, "datasetName"), str(2, "datasetUUID"));
PB_MESSAGE(kFCVolumeSource, CORE "FCVolumeSource",
           list(str(1, "targetWWNs")), i32(2, "lun", kKeepZero), str(3, "fsType"), boolean(4, "readOnly"),
           list(str(5, "wwids")));
PB_MESSAGE(kAzureFileVolumeSource, CORE "AzureFileVolumeSource",
           str(1, "secretName", kKeepZero), str(2, "shareName", kKeepZero), boolean(3, "readOnly"));
PB_MESSAGE(kVsphereVirtualDiskVolumeSource, CORE "VsphereVirtualDiskVolumeSource",
           str(1, "volumePath", kKeepZero), str(2, "fsType"), str(3, "storagePolicyName"), str(4, "storagePolicyID"));
PB_MESSAGE(kQuobyteVolumeSource, CORE "QuobyteVolumeSource",
           str(1, "registry", kKeepZero), str(2, "volume", kKeepZero), boolean(3, "readOnly"), str(4, "user"),
           str(5, "group"), str(6, "tenant"));
PB_MESSAGE(kAzureDiskVolumeSource, CORE "AzureDiskVolumeSource",
           str(1, "diskName", kKeepZero), str(2, "diskURI", kKeepZero), str(3, "cachingMode", kKeepZero),
           str(4, "fsType", kKeepZero), boolean(5, "readOnly", kKeepZero), str(6, "kind", kKeepZero));
PB_MESSAGE(kPhotonPersistentDiskVolumeSource, CORE "PhotonPersistentDiskVolumeSource",
           str(1, "pdID", kKeepZero), str(2, "fsType"));
PB_MESSAGE(kPortworxVolumeSource, CORE "PortworxVolumeSource",
           str(1, "volumeID", kKeepZero), str(2, "fsType"), boolean(3, "readOnly"));
PB_MESSAGE(kScaleIOVolumeSource, CORE "ScaleIOVolumeSource",
           str(1, "gateway", kKeepZero), str(2, "system", kKeepZero), msg(3, "secretRef", kLocalObjectReference),
           boolean(4, "sslEnabled"), str(5, "protectionDomain"), str(6, "storagePool"), str(7, "storageMode"),
           str(8, "volumeName"), str(9, "fsType"), boolean(10, "readOnly"));
PB_MESSAGE(kStorageOSVolumeSource, CORE "StorageOSVolumeSource",
           str(1, "volumeName"), str(2, "volumeNamespace"), str(3, "fsType"), boolean(4, "readOnly"),
           msg(5, "secretRef", kLocalObjectReference));
PB_MESSAGE(kVolumeSource, CORE "VolumeSource",
           msg(1, "hostPath", kHostPathVolumeSource),
           msg(2, "emptyDir", kEmptyDirVolumeSource),
           msg(3, "gcePersistentDisk", kGCEPersistentDiskVolumeSource),
           msg(4, "awsElasticBlockStore", kAWSElasticBlockStoreVolumeSource),
           msg(5, "gitRepo", kGitRepoVolumeSource),
           msg(6, "secret", kSecretVolumeSource),
           msg(7, "nfs", kNFSVolumeSource),
           msg(8, "iscsi", kISCSIVolumeSource),
           msg(9, "glusterfs", kGlusterfsVolumeSource),
           msg(10, "persistentVolumeClaim", kPersistentVolumeClaimVolumeSource),
           msg(11, "rbd", kRBDVolumeSource),
           msg(12, "flexVolume", kFlexVolumeSource),
           msg(13, "cinder", kCinderVolumeSource),
           msg(14, "cephfs", kCephFSVolumeSource),
           msg(15, "flocker", kFlockerVolumeSource),
           msg(16, "downwardAPI", kDownwardAPIVolumeSource),
           msg(17, "fc", kFCVolumeSource),
           msg(18, "azureFile", kAzureFileVolumeSource),
           msg(19, "configMap", kConfigMapVolumeSource),
           msg(20, "vsphereVolume", kVsphereVirtualDiskVolumeSource),
           msg(21, "quobyte", kQuobyteVolumeSource),
           msg(22, "azureDisk", kAzureDiskVolumeSource),
           msg(23, "photonPersistentDisk", kPhotonPersistentDiskVolumeSource),
           msg(26, "projected", kProjectedVolumeSource),
           msg(24, "portworxVolume", kPortworxVolumeSource),
           msg(25, "scaleIO", kScaleIOVolumeSource),
           msg(27, "storageos", kStorageOSVolumeSource),
           msg(28, "csi", kCSIVolumeSource),
           msg(29, "ephemeral", kEphemeralVolumeSource),
           msg(30, "image", kImageVolumeSource));
PB_MESSAGE(kVolume, CORE "Volume", str(1, "name", kKeepZero), inlined(2, kVolumeSource));

// --- Scheduling: affinity, tolerations, topology spread ---------------------------------------------
PB_MESSAGE(kNodeSelectorRequirement, CORE "NodeSelectorRequirement",
           str(1, "key", kKeepZero), str(2, "operator", kKeepZero), list(str(3, "values")));
PB_MESSAGE(kNodeSelectorTerm, CORE "NodeSelectorTerm",
           list(msg(1, "matchExpressions", kNodeSelectorRequirement)),
           list(msg(2, "matchFields", kNodeSelectorRequirement)));
PB_MESSAGE(kNodeSelector, CORE "NodeSelector", list(msg(1, "nodeSelectorTerms", kNodeSelectorTerm, kKeepZero)));
PB_MESSAGE(kPreferredSchedulingTerm, CORE "PreferredSchedulingTerm",
           i32(1, "weight", kKeepZero), msg(2, "preference", kNodeSelectorTerm, kValue));
PB_MESSAGE(kNodeAffinity, CORE "NodeAffinity",
           msg(1, "requiredDuringSchedulingIgnoredDuringExecution", kNodeSelector),
           list(msg(2, "preferredDuringSchedulingIgnoredDuringExecution", kPreferredSchedulingTerm)));
PB_MESSAGE(kPodAffinityTerm, CORE "PodAffinityTerm",
           msg(1, "labelSelector", kLabelSelector),
           list(str(2, "namespaces")),
           str(3, "topologyKey", kKeepZero),
           msg(4, "namespaceSelector", kLabelSelector),
           list(str(5, "matchLabelKeys")),
           list(str(6, "mismatchLabelKeys")));
PB_MESSAGE(kWeightedPodAffinityTerm, CORE "WeightedPodAffinityTerm",
           i32(1, "weight", kKeepZero), msg(2, "podAffinityTerm", kPodAffinityTerm, kValue));
PB_MESSAGE(kPodAffinity, CORE "PodAffinity",
           list(msg(1, "requiredDuringSchedulingIgnoredDuringExecution", kPodAffinityTerm)),
           list(msg(2, "preferredDuringSchedulingIgnoredDuringExecution", kWeightedPodAffinityTerm)));
PB_MESSAGE(kPodAntiAffinity, CORE "PodAntiAffinity",
           list(msg(1, "requiredDuringSchedulingIgnoredDuringExecution", kPodAffinityTerm)),
           list(msg(2, "preferredDuringSchedulingIgnoredDuringExecution", kWeightedPodAffinityTerm)));
PB_MESSAGE(kAffinity, CORE "Affinity",
           msg(1, "nodeAffinity", kNodeAffinity), msg(2, "podAffinity", kPodAffinity),
           msg(3, "podAntiAffinity", kPodAntiAffinity));
PB_MESSAGE(kToleration, CORE "Toleration",
           str(1, "key"), str(2, "operator"), str(3, "value"), str(4, "effect"),
           i64(5, "tolerationSeconds", kKeepZero));
PB_MESSAGE(kTopologySpreadConstraint, CORE "TopologySpreadConstraint",
           i32(1, "maxSkew", kKeepZero),
           str(2, "topologyKey", kKeepZero),
           str(3, "whenUnsatisfiable", kKeepZero),
           msg(4, "labelSelector", kLabelSelector),
           i32(5, "minDomains", kKeepZero),
           str(6, "nodeAffinityPolicy", kKeepZero),
           str(7, "nodeTaintsPolicy", kKeepZero),
           list(str(8, "matchLabelKeys")));

// --- PodSpec -----------------------------------------------------------------------------------------
PB_MESSAGE(kSysctl, CORE "Sysctl", str(1, "name", kKeepZero), str(2, "value", kKeepZero));
PB_MESSAGE(kPodSecurityContext, CORE "PodSecurityContext",
           msg(1, "seLinuxOptions", kSELinuxOptions),
           msg(8, "windowsOptions", kWindowsSecurityContextOptions),
           i64(2, "runAsUser", kKeepZero),
           i64(6, "runAsGroup", kKeepZero),
           boolean(3, "runAsNonRoot", kKeepZero),
           list(i64(4, "supplementalGroups")),
           str(12, "supplementalGroupsPolicy", kKeepZero),
           i64(5, "fsGroup", kKeepZero),
           list(msg(7, "sysctls", kSysctl)),
           str(9, "fsGroupChangePolicy", kKeepZero),
           msg(10, "seccompProfile", kSeccompProfile),
           msg(11, "appArmorProfile", kAppArmorProfile),
           str(13, "seLinuxChangePolicy", kKeepZero));
PB_MESSAGE(kHostAlias, CORE "HostAlias", str(1, "ip", kKeepZero), list(str(2, "hostnames")));
PB_MESSAGE(kPodDNSConfigOption, CORE "PodDNSConfigOption", str(1, "name"), str(2, "value", kKeepZero));
PB_MESSAGE(kPodDNSConfig, CORE "PodDNSConfig",
           list(str(1, "nameservers")), list(str(2, "searches")), list(msg(3, "options", kPodDNSConfigOption)));
PB_MESSAGE(kPodReadinessGate, CORE "PodReadinessGate", str(1, "conditionType", kKeepZero));
PB_MESSAGE(kPodOS, CORE "PodOS", str(1, "name", kKeepZero));
PB_MESSAGE(kPodSchedulingGate, CORE "PodSchedulingGate", str(1, "name", kKeepZero));
PB_MESSAGE(kPodResourceClaim, CORE "PodResourceClaim",
           str(1, "name", kKeepZero), str(3, "resourceClaimName", kKeepZero),
           str(4, "resourceClaimTemplateName", kKeepZero));

PB_MESSAGE(kPodSpec, CORE "PodSpec",
           list(msg(1, "volumes", kVolume)),
           list(msg(20, "initContainers", kContainer)),
           list(msg(2, "containers", kContainer, kKeepZero)),
           list(msg(34, "ephemeralContainers", kEphemeralContainer)),
           str(3, "restartPolicy"),
           i64(4, "terminationGracePeriodSeconds", kKeepZero),
           i64(5, "activeDeadlineSeconds", kKeepZero),
           str(6, "dnsPolicy"),
           map_of(str(7, "nodeSelector")),
           str(8, "serviceAccountName"),
           str(9, "serviceAccount"),
           boolean(21, "automountServiceAccountToken", kKeepZero),
           str(10, "nodeName"),
           boolean(11, "hostNetwork"),
           boolean(12, "hostPID"),
           boolean(13, "hostIPC"),
           boolean(27, "shareProcessNamespace", kKeepZero),
           msg(14, "securityContext", kPodSecurityContext),
           list(msg(15, "imagePullSecrets", kLocalObjectReference)),
           str(16, "hostname"),
           str(17, "subdomain"),
           msg(18, "affinity", kAffinity),
           str(19, "schedulerName"),
           list(msg(22, "tolerations", kToleration)),
           list(msg(23, "hostAliases", kHostAlias)),
           str(24, "priorityClassName"),
           i32(25, "priority", kKeepZero),
           msg(26, "dnsConfig", kPodDNSConfig),
           list(msg(28, "readinessGates", kPodReadinessGate)),
           str(29, "runtimeClassName", kKeepZero),
           boolean(30, "enableServiceLinks", kKeepZero),
           str(31, "preemptionPolicy", kKeepZero),
           map_of(msg(32, "overhead", kQuantity)),
           list(msg(33, "topologySpreadConstraints", kTopologySpreadConstraint)),
           boolean(35, "setHostnameAsFQDN", kKeepZero),
           msg(36, "os", kPodOS),
           boolean(37, "hostUsers", kKeepZero),
           list(msg(38, "schedulingGates", kPodSchedulingGate)),
           list(msg(39, "resourceClaims", kPodResourceClaim)),
           msg(40, "resources", kResourceRequirements));

// --- PodStatus ---------------------------------------------------------------------------------------
PB_MESSAGE(kPodCondition, CORE "PodCondition",
           str(1, "type", kKeepZero), str(2, "status", kKeepZero), msg(3, "lastProbeTime", kTime),
           msg(4, "lastTransitionTime", kTime), str(5, "reason"), str(6, "message"));
PB_MESSAGE(kPodIP, CORE "PodIP", str(1, "ip", kKeepZero));
PB_MESSAGE(kHostIP, CORE "HostIP", str(1, "ip", kKeepZero));
PB_MESSAGE(kContainerStateWaiting, CORE "ContainerStateWaiting", str(1, "reason"), str(2, "message"));
PB_MESSAGE(kContainerStateRunning, CORE "ContainerStateRunning", msg(1, "startedAt", kTime));
PB_MESSAGE(kContainerStateTerminated, CORE "ContainerStateTerminated",
           i32(1, "exitCode", kKeepZero), i32(2, "signal"), str(3, "reason"), str(4, "message"),
           msg(5, "startedAt", kTime), msg(6, "finishedAt", kTime), str(7, "containerID"));
PB_MESSAGE(kContainerState, CORE "ContainerState",
           msg(1, "waiting", kContainerStateWaiting), msg(2, "running", kContainerStateRunning),
           msg(3, "terminated", kContainerStateTerminated));
PB_MESSAGE(kVolumeMountStatus, CORE "VolumeMountStatus",
           str(1, "name", kKeepZero), str(2, "mountPath", kKeepZero), boolean(3, "readOnly"),
           str(4, "recursiveReadOnly", kKeepZero));
PB_MESSAGE(kLinuxContainerUser, CORE "LinuxContainerUser",
           i64(1, "uid", kKeepZero), i64(2, "gid", kKeepZero), list(i64(3, "supplementalGroups")));
PB_MESSAGE(kContainerUser, CORE "ContainerUser", msg(1, "linux", kLinuxContainerUser));
PB_MESSAGE(kResourceHealth, CORE "ResourceHealth", str(1, "resourceID", kKeepZero), str(2, "health"));
PB_MESSAGE(kResourceStatus, CORE "ResourceStatus", str(1, "name", kKeepZero), list(msg(2, "resources", kResourceHealth)));
PB_MESSAGE(kContainerStatus, CORE "ContainerStatus",
           str(1, "name", kKeepZero),
           msg(2, "state", kContainerState, kValue),
           msg(3, "lastState", kContainerState, kValue),
           boolean(4, "ready", kKeepZero),
           i32(5, "restartCount", kKeepZero),
           str(6, "image", kKeepZero),
           str(7, "imageID", kKeepZero),
           str(8, "containerID"),
           boolean(9, "started", kKeepZero),
           map_of(msg(10, "allocatedResources", kQuantity)),
           msg(11, "resources", kResourceRequirements),
           list(msg(12, "volumeMounts", kVolumeMountStatus)),
           msg(13, "user", kContainerUser),
           list(msg(14, "allocatedResourcesStatus", kResourceStatus)));
PB_MESSAGE(kPodResourceClaimStatus, CORE "PodResourceClaimStatus",
           str(1, "name", kKeepZero), str(2, "resourceClaimName", kKeepZero));
PB_MESSAGE(kPodStatus, CORE "PodStatus",
           str(1, "phase"),
           list(msg(2, "conditions", kPodCondition)),
           str(3, "message"),
           str(4, "reason"),
           str(11, "nominatedNodeName"),
           str(5, "hostIP"),
           list(msg(16, "hostIPs", kHostIP)),
           str(6, "podIP"),
           list(msg(12, "podIPs", kPodIP)),
           msg(7, "startTime", kTime),
           list(msg(10, "initContainerStatuses", kContainerStatus)),
           list(msg(8, "containerStatuses", kContainerStatus)),
           str(9, "qosClass"),
           list(msg(13, "ephemeralContainerStatuses", kContainerStatus)),
           str(14, "resize"),
           list(msg(15, "resourceClaimStatuses", kPodResourceClaimStatus)));

PB_MESSAGE(kPod, CORE "Pod",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kPodSpec, kValue), msg(3, "status", kPodStatus, kValue));
PB_MESSAGE(kPodTemplateSpec, CORE "PodTemplateSpec", msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kPodSpec, kValue));
PB_MESSAGE(kPodTemplate, CORE "PodTemplate", msg(1, "metadata", kObjectMeta, kValue), msg(2, "template", kPodTemplateSpec, kValue));
PB_MESSAGE(kBinding, CORE "Binding", msg(1, "metadata", kObjectMeta, kValue), msg(2, "target", kObjectReference, kValue));

// --- ReplicationController ---------------------------------------------------------------------------
PB_MESSAGE(kReplicationControllerSpec, CORE "ReplicationControllerSpec",
           i32(1, "replicas", kKeepZero), i32(4, "minReadySeconds"), map_of(str(2, "selector")),
           msg(3, "template", kPodTemplateSpec));
PB_MESSAGE(kReplicationControllerCondition, CORE "ReplicationControllerCondition",
           str(1, "type", kKeepZero), str(2, "status", kKeepZero), msg(3, "lastTransitionTime", kTime),
           str(4, "reason"), str(5, "message"));
PB_MESSAGE(kReplicationControllerStatus, CORE "ReplicationControllerStatus",
           i32(1, "replicas", kKeepZero), i32(2, "fullyLabeledReplicas"), i32(4, "readyReplicas"),
           i32(5, "availableReplicas"), i64(3, "observedGeneration"),
           list(msg(6, "conditions", kReplicationControllerCondition)));
PB_MESSAGE(kReplicationController, CORE "ReplicationController",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kReplicationControllerSpec, kValue),
           msg(3, "status", kReplicationControllerStatus, kValue));

// --- ResourceQuota, LimitRange -----------------------------------------------------------------------
PB_MESSAGE(kScopedResourceSelectorRequirement, CORE "ScopedResourceSelectorRequirement",
           str(1, "scopeName", kKeepZero), str(2, "operator", kKeepZero), list(str(3, "values")));
PB_MESSAGE(kScopeSelector, CORE "ScopeSelector",
           list(msg(1, "matchExpressions", kScopedResourceSelectorRequirement)));
PB_MESSAGE(kResourceQuotaSpec, CORE "ResourceQuotaSpec",
           map_of(msg(1, "hard", kQuantity)), list(str(2, "scopes")), msg(3, "scopeSelector", kScopeSelector));
PB_MESSAGE(kResourceQuotaStatus, CORE "ResourceQuotaStatus",
           map_of(msg(1, "hard", kQuantity)), map_of(msg(2, "used", kQuantity)));
PB_MESSAGE(kResourceQuota, CORE "ResourceQuota",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kResourceQuotaSpec, kValue), msg(3, "status", kResourceQuotaStatus, kValue));

PB_MESSAGE(kLimitRangeItem, CORE "LimitRangeItem",
           str(1, "type", kKeepZero),
           map_of(msg(2, "max", kQuantity)),
           map_of(msg(3, "min", kQuantity)),
           map_of(msg(4, "default", kQuantity)),
           map_of(msg(5, "defaultRequest", kQuantity)),
           map_of(msg(6, "maxLimitRequestRatio", kQuantity)));
PB_MESSAGE(kLimitRangeSpec, CORE "LimitRangeSpec", list(msg(1, "limits", kLimitRangeItem, kKeepZero)));
PB_MESSAGE(kLimitRange, CORE "LimitRange", msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kLimitRangeSpec, kValue));

// --- PersistentVolumeClaim ---------------------------------------------------------------------------
PB_MESSAGE(kVolumeResourceRequirements, CORE "VolumeResourceRequirements",
           map_of(msg(1, "limits", kQuantity)), map_of(msg(2, "requests", kQuantity)));
PB_MESSAGE(kPersistentVolumeClaimSpec, CORE "PersistentVolumeClaimSpec",
           list(str(1, "accessModes")),
           msg(4, "selector", kLabelSelector),
           msg(2, "resources", kVolumeResourceRequirements, kValue),
           str(3, "volumeName"),
           str(5, "storageClassName", kKeepZero),
           str(6, "volumeMode", kKeepZero),
           msg(7, "dataSource", kTypedLocalObjectReference),
           msg(8, "dataSourceRef", kTypedObjectReference),
           str(9, "volumeAttributesClassName", kKeepZero));
PB_MESSAGE(kPersistentVolumeClaimCondition, CORE "PersistentVolumeClaimCondition",
           str(1, "type", kKeepZero), str(2, "status", kKeepZero), msg(3, "lastProbeTime", kTime),
           msg(4, "lastTransitionTime", kTime), str(5, "reason"), str(6, "message"));
PB_MESSAGE(kModifyVolumeStatus, CORE "ModifyVolumeStatus",
           str(1, "targetVolumeAttributesClassName"), str(2, "status", kKeepZero));
PB_MESSAGE(kPersistentVolumeClaimStatus, CORE "PersistentVolumeClaimStatus",
           str(1, "phase"), list(str(2, "accessModes")), map_of(msg(3, "capacity", kQuantity)),
           list(msg(4, "conditions", kPersistentVolumeClaimCondition)),
           map_of(msg(5, "allocatedResources", kQuantity)),
           map_of(str(7, "allocatedResourceStatuses")),
           str(8, "currentVolumeAttributesClassName", kKeepZero),
           msg(9, "modifyVolumeStatus", kModifyVolumeStatus));
PB_MESSAGE(kPersistentVolumeClaim, CORE "PersistentVolumeClaim",
           msg(1, "metadata", kObjectMeta, kValue), msg(2, "spec", kPersistentVolumeClaimSpec, kValue),
           msg(3, "status", kPersistentVolumeClaimStatus, kValue));

// --- Endpoints ---------------------------------------------------------------------------------------
PB_MESSAGE(kEndpointAddress, CORE "EndpointAddress",
           str(1, "ip", kKeepZero), str(3, "hostname"), str(4, "nodeName", kKeepZero),
           msg(2, "targetRef", kObjectReference));
PB_MESSAGE(kEndpointPort, CORE "EndpointPort",
           str(1, "name"), i32(2, "port", kKeepZero), str(3, "protocol"), str(4, "appProtocol", kKeepZero));
PB_MESSAGE(kEndpointSubset, CORE "EndpointSubset",
           list(msg(1, "addresses", kEndpointAddress)), list(msg(2, "notReadyAddresses", kEndpointAddress)),
           list(msg(3, "ports", kEndpointPort)));
PB_MESSAGE(kEndpoints, CORE "Endpoints", msg(1, "metadata", kObjectMeta, kValue), list(msg(2, "subsets", kEndpointSubset)));

// --- Event -----------------------------------------------------------------------------------------
PB_MESSAGE(kEventSource, CORE "EventSource", str(1, "component"), str(2, "host"));
PB_MESSAGE(kEventSeries, CORE "EventSeries", i32(1, "count"), msg(2, "lastObservedTime", kMicroTime));
PB_MESSAGE(kEvent, CORE "Event",
           msg(1, "metadata", kObjectMeta, kValue),
           msg(2, "involvedObject", kObjectReference, kValue),
           str(3, "reason"),
           str(4, "message"),
           msg(5, "source", kEventSource, kValue),
           msg(6, "firstTimestamp", kTime),
           msg(7, "lastTimestamp", kTime),
           i32(8, "count"),
           str(9, "type"),
           msg(10, "eventTime", kMicroTime),
           msg(11, "series", kEventSeries),
           str(12, "action"),
           msg(13, "related", kObjectReference),
           str(14, "reportingComponent", kKeepZero),
           str(15, "reportingInstance", kKeepZero));

// TopologySelectorTerm (StorageClass.allowedTopologies).
PB_MESSAGE(kTopologySelectorLabelRequirement, CORE "TopologySelectorLabelRequirement",
           str(1, "key", kKeepZero), list(str(2, "values", kKeepZero)));
PB_MESSAGE(kTopologySelectorTerm, CORE "TopologySelectorTerm",
           list(msg(1, "matchLabelExpressions", kTopologySelectorLabelRequirement)));

#undef CORE

}  // namespace capstan::apiserver::protobuf::schema
