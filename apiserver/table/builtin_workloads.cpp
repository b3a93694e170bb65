// Printers for podtemplates, apps (deployments, statefulsets, replicasets, daemonsets) and batch
// (jobs, cronjobs).
#include "apiserver/table/printers_internal.h"

namespace capstan::apiserver::table::printers {
namespace {

// spec.replicas, defaulted to 1 as kube-apiserver stores it.
std::int64_t desired_replicas(const json::Value& obj) { return int_at(obj, {"spec", "replicas"}, 1); }

void add_containers(Row& row, const json::Value& obj, json::Path containers_path) {
  auto [names, images] = layout_containers(json::get_array(obj, containers_path));
  row.cells.emplace_back(names);
  row.cells.emplace_back(images);
}

// ---- podtemplates ------------------------------------------------------------------------------

Row podtemplate_row(const json::Value& pt, meta::TimePoint) {
  Row row = named_row(pt);
  add_containers(row, pt, {"template", "spec", "containers"});
  row.cells.emplace_back(format_labels(json::get_object(pt, {"template", "metadata", "labels"})));
  return row;
}

// ---- deployments ------------------------------------------------------------------------------

Row deployment_row(const json::Value& d, meta::TimePoint now) {
  Row row = named_row(d);
  row.cells.emplace_back(std::to_string(int_at(d, {"status", "readyReplicas"})) + "/" +
                         std::to_string(desired_replicas(d)));
  row.cells.emplace_back(int_at(d, {"status", "updatedReplicas"}));
  row.cells.emplace_back(int_at(d, {"status", "availableReplicas"}));
  row.cells.emplace_back(age_of(d, now));
  add_containers(row, d, {"spec", "template", "spec", "containers"});
  auto selector = label_selector_string(json::find(d, {"spec", "selector"}));
  row.cells.emplace_back(selector ? *selector : std::string("<invalid>"));
  return row;
}

std::vector<ColumnDefinition> deployment_columns() {
  return {
      name_column(),
      column("Ready", "string", "Number of the pod with ready state"),
      column("Up-to-date", "string",
             "Total number of non-terminating pods targeted by this deployment that have the desired template spec."),
      column("Available", "string",
             "Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this "
             "deployment."),
      age_column(),
      column("Containers", "string", kContainersDescription, 1),
      column("Images", "string", kImagesDescription, 1),
      column("Selector", "string",
             "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones "
             "affected by this deployment. It must match the pod template's labels.",
             1),
  };
}

// ---- statefulsets -----------------------------------------------------------------------------

Row statefulset_row(const json::Value& s, meta::TimePoint now) {
  Row row = named_row(s);
  row.cells.emplace_back(std::to_string(int_at(s, {"status", "readyReplicas"})) + "/" +
                         std::to_string(desired_replicas(s)));
  row.cells.emplace_back(age_of(s, now));
  add_containers(row, s, {"spec", "template", "spec", "containers"});
  return row;
}

std::vector<ColumnDefinition> statefulset_columns() {
  return {
      name_column(),
      column("Ready", "string", "Number of the pod with ready state"),
      age_column(),
      column("Containers", "string", kContainersDescription, 1),
      column("Images", "string", kImagesDescription, 1),
  };
}

// ---- replicasets ------------------------------------------------------------------------------

Row replicaset_row(const json::Value& rs, meta::TimePoint now) {
  Row row = named_row(rs);
  row.cells.emplace_back(desired_replicas(rs));
  row.cells.emplace_back(int_at(rs, {"status", "replicas"}));
  row.cells.emplace_back(int_at(rs, {"status", "readyReplicas"}));
  row.cells.emplace_back(age_of(rs, now));
  add_containers(row, rs, {"spec", "template", "spec", "containers"});
  row.cells.emplace_back(format_label_selector(json::find(rs, {"spec", "selector"})));
  return row;
}

std::vector<ColumnDefinition> replicaset_columns() {
  return {
      name_column(),
      column("Desired", "integer",
             "Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and "
             "unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset"),
      column("Current", "integer",
             "Replicas is the most recently observed number of non-terminating pods. More info: "
             "https://kubernetes.io/docs/concepts/workloads/controllers/replicaset"),
      column("Ready", "integer",
             "The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition."),
      age_column(),
      column("Containers", "string", kContainersDescription, 1),
      column("Images", "string", kImagesDescription, 1),
      column("Selector", "string",
             "Selector is a label query over pods that should match the replica count. Label keys and values that "
             "must match in order to be controlled by this replica set. It must match the pod template's labels. "
             "More info: "
             "https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
             1),
  };
}

// ---- daemonsets -------------------------------------------------------------------------------

Row daemonset_row(const json::Value& ds, meta::TimePoint now) {
  Row row = named_row(ds);
  row.cells.emplace_back(int_at(ds, {"status", "desiredNumberScheduled"}));
  row.cells.emplace_back(int_at(ds, {"status", "currentNumberScheduled"}));
  row.cells.emplace_back(int_at(ds, {"status", "numberReady"}));
  row.cells.emplace_back(int_at(ds, {"status", "updatedNumberScheduled"}));
  row.cells.emplace_back(int_at(ds, {"status", "numberAvailable"}));
  row.cells.emplace_back(format_labels(json::get_object(ds, {"spec", "template", "spec", "nodeSelector"})));
  row.cells.emplace_back(age_of(ds, now));
  add_containers(row, ds, {"spec", "template", "spec", "containers"});
  row.cells.emplace_back(format_label_selector(json::find(ds, {"spec", "selector"})));
  return row;
}

std::vector<ColumnDefinition> daemonset_columns() {
  return {
      name_column(),
      column("Desired", "integer",
             "The total number of nodes that should be running the daemon pod (including nodes correctly running "
             "the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/"),
      column("Current", "integer",
             "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. "
             "More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/"),
      column("Ready", "integer",
             "numberReady is the number of nodes that should be running the daemon pod and have one or more of the "
             "daemon pod running with a Ready Condition."),
      column("Up-to-date", "integer", "The total number of nodes that are running updated daemon pod"),
      column("Available", "integer",
             "The number of nodes that should be running the daemon pod and have one or more of the daemon pod "
             "running and available (ready for at least spec.minReadySeconds)"),
      column("Node Selector", "string",
             "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match "
             "a node's labels for the pod to be scheduled on that node. More info: "
             "https://kubernetes.io/docs/concepts/configuration/assign-pod-node/"),
      age_column(),
      column("Containers", "string", kContainersDescription, 1),
      column("Images", "string", kImagesDescription, 1),
      column("Selector", "string",
             "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It "
             "must match the pod template's labels. More info: "
             "https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
             1),
  };
}

// ---- jobs -------------------------------------------------------------------------------------

bool job_condition(const json::Value& job, std::string_view type) {
  if (const auto* conds = json::get_array(job, {"status", "conditions"}))
    for (const auto& c : *conds)
      if (json::get_string(c, {"type"}) == type) return json::get_string(c, {"status"}) == "True";
  return false;
}

Row job_row(const json::Value& job, meta::TimePoint now) {
  Row row = named_row(job);
  const auto succeeded = int_at(job, {"status", "succeeded"});
  std::string completions;
  if (json::find(job, {"spec", "completions"}) && !json::find(job, {"spec", "completions"})->is_null()) {
    completions = std::to_string(succeeded) + "/" + std::to_string(int_at(job, {"spec", "completions"}));
  } else {
    auto parallelism = int_at(job, {"spec", "parallelism"});
    completions = parallelism > 1 ? std::to_string(succeeded) + "/1 of " + std::to_string(parallelism)
                                  : std::to_string(succeeded) + "/1";
  }
  std::string duration;
  auto start = timestamp_at(job, {"status", "startTime"});
  auto completion = timestamp_at(job, {"status", "completionTime"});
  if (start) {
    auto end = completion ? *completion : now;
    duration = go_human_duration(std::chrono::duration_cast<std::chrono::nanoseconds>(end - *start));
  }
  std::string status;
  if (job_condition(job, "Complete")) status = "Complete";
  else if (job_condition(job, "Failed")) status = "Failed";
  else if (!str_at(job, {"metadata", "deletionTimestamp"}).empty()) status = "Terminating";
  else if (job_condition(job, "Suspended")) status = "Suspended";
  else if (job_condition(job, "FailureTarget")) status = "FailureTarget";
  else status = "Running";
  row.cells.emplace_back(status);
  row.cells.emplace_back(completions);
  row.cells.emplace_back(duration);
  row.cells.emplace_back(age_of(job, now));
  add_containers(row, job, {"spec", "template", "spec", "containers"});
  row.cells.emplace_back(format_label_selector(json::find(job, {"spec", "selector"})));
  return row;
}

const char* const kJobSelectorDescription =
    "A label query over pods that should match the pod count. Normally, the system sets this field for you. More "
    "info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors";

std::vector<ColumnDefinition> job_columns() {
  return {
      name_column(),
      column("Status", "string", "Status of the job."),
      column("Completions", "string",
             "The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. "
             "However, it may decrease in reaction to scale down of elastic indexed jobs."),
      column("Duration", "string", "Time required to complete the job."),
      age_column(),
      column("Containers", "string", kContainersDescription, 1),
      column("Images", "string", kImagesDescription, 1),
      column("Selector", "string", kJobSelectorDescription, 1),
  };
}

// ---- cronjobs ---------------------------------------------------------------------------------

Row cronjob_row(const json::Value& cj, meta::TimePoint now) {
  Row row = named_row(cj);
  std::string last_schedule = "<none>";
  if (!str_at(cj, {"status", "lastScheduleTime"}).empty()) last_schedule = since(str_at(cj, {"status", "lastScheduleTime"}), now);
  const auto* tz = json::find(cj, {"spec", "timeZone"});
  const auto* suspend = json::find(cj, {"spec", "suspend"});
  row.cells.emplace_back(str_at(cj, {"spec", "schedule"}));
  row.cells.emplace_back(tz && tz->is_string() ? std::string(tz->get_string()) : "<none>");
  // printBoolPtr of the defaulted field (suspend defaults to false).
  row.cells.emplace_back(suspend && suspend->is_bool() && suspend->get_bool() ? "True" : "False");
  row.cells.emplace_back(static_cast<std::int64_t>(size_at(cj, {"status", "active"})));
  row.cells.emplace_back(last_schedule);
  row.cells.emplace_back(age_of(cj, now));
  add_containers(row, cj, {"spec", "jobTemplate", "spec", "template", "spec", "containers"});
  row.cells.emplace_back(format_label_selector(json::find(cj, {"spec", "jobTemplate", "spec", "selector"})));
  return row;
}

std::vector<ColumnDefinition> cronjob_columns() {
  return {
      name_column(),
      column("Schedule", "string", "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron."),
      column("Timezone", "string",
             "The time zone name for the given schedule, see "
             "https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to "
             "the time zone of the kube-controller-manager process. The set of valid time zone names and the time "
             "zone offset is loaded from the system-wide time zone database by the API server during CronJob "
             "validation and the controller manager during execution. If no system-wide time zone database can be "
             "found a bundled version of the database is used instead. If the time zone name becomes invalid "
             "during the lifetime of a CronJob or due to a change in host configuration, the controller will stop "
             "creating new new Jobs and will create a system event with the reason UnknownTimeZone. More "
             "information can be found in "
             "https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones"),
      column("Suspend", "boolean",
             "This flag tells the controller to suspend subsequent executions, it does not apply to already started "
             "executions.  Defaults to false."),
      column("Active", "integer", "A list of pointers to currently running jobs."),
      column("Last Schedule", "string", "Information when was the last time the job was successfully scheduled."),
      age_column(),
      column("Containers", "string", kContainersDescription, 1),
      column("Images", "string", kImagesDescription, 1),
      column("Selector", "string", kJobSelectorDescription, 1),
  };
}

}  // namespace

void add_workloads(std::vector<Entry>& out) {
  out.push_back({"", "podtemplates",
                 FnConverter({name_column(), column("Containers", "string", kContainersDescription),
                              column("Images", "string", kImagesDescription),
                              column("Pod Labels", "string", "The labels for the pod template.")},
                             podtemplate_row)});
  out.push_back({"apps", "deployments", FnConverter(deployment_columns(), deployment_row)});
  out.push_back({"apps", "statefulsets", FnConverter(statefulset_columns(), statefulset_row)});
  out.push_back({"apps", "replicasets", FnConverter(replicaset_columns(), replicaset_row)});
  out.push_back({"apps", "daemonsets", FnConverter(daemonset_columns(), daemonset_row)});
  out.push_back({"batch", "jobs", FnConverter(job_columns(), job_row)});
  out.push_back({"batch", "cronjobs", FnConverter(cronjob_columns(), cronjob_row)});
}

}  // namespace capstan::apiserver::table::printers
