// Security and operability posture of rendered workloads. Each rule returns
// readable violations; an empty list means the manifests pass.

const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob']);

const podSpecOf = (doc) => (doc.kind === 'CronJob' ? doc.spec?.jobTemplate?.spec?.template?.spec : doc.spec?.template?.spec);

const name = (doc) => `${doc.kind}/${doc.metadata?.name}`;

/** Violations of the pod-level and container-level posture of every workload. */
export function postureViolations(docs) {
  const out = [];
  const workloads = docs.filter((d) => WORKLOAD_KINDS.has(d.kind));
  if (workloads.length === 0) out.push('no workloads rendered');
  for (const doc of workloads) {
    const pod = podSpecOf(doc);
    const where = name(doc);
    if (!pod) {
      out.push(`${where}: no pod spec`);
      continue;
    }
    const psc = pod.securityContext ?? {};
    if (pod.automountServiceAccountToken !== false) out.push(`${where}: service account token is mounted`);
    if (pod.hostNetwork || pod.hostPID || pod.hostIPC) out.push(`${where}: uses a host namespace`);
    if ((pod.volumes ?? []).some((v) => v.hostPath)) out.push(`${where}: mounts a hostPath volume`);
    if (psc.runAsUser === 0) out.push(`${where}: pod runs as uid 0`);

    const containers = [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
    if (containers.length === 0) out.push(`${where}: no containers`);
    const writable = new Set((pod.volumes ?? []).filter((v) => v.emptyDir || v.ephemeral).map((v) => v.name));
    for (const c of containers) {
      const at = `${where} container ${c.name}`;
      const sc = c.securityContext ?? {};
      const nonRoot = sc.runAsNonRoot ?? psc.runAsNonRoot;
      const uid = sc.runAsUser ?? psc.runAsUser;
      if (nonRoot !== true) out.push(`${at}: runAsNonRoot is not true`);
      if (uid === 0) out.push(`${at}: runs as uid 0`);
      if (sc.readOnlyRootFilesystem !== true) out.push(`${at}: root file system is writable`);
      if (sc.allowPrivilegeEscalation !== false) out.push(`${at}: privilege escalation allowed`);
      if (sc.privileged === true) out.push(`${at}: privileged`);
      if (!(sc.capabilities?.drop ?? []).includes('ALL')) out.push(`${at}: capabilities not dropped (drop ALL)`);
      if ((sc.capabilities?.add ?? []).length > 0) out.push(`${at}: adds capabilities`);
      const seccomp = sc.seccompProfile?.type ?? psc.seccompProfile?.type;
      if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost') out.push(`${at}: no seccomp profile`);
      const res = c.resources ?? {};
      if (!res.requests?.cpu) out.push(`${at}: no CPU request`);
      if (!res.requests?.memory) out.push(`${at}: no memory request`);
      if (!res.limits?.memory) out.push(`${at}: no memory limit`);
      if (/:latest$/.test(c.image ?? '') || !/[:@]/.test(c.image ?? '')) out.push(`${at}: image not pinned (${c.image})`);
      for (const m of c.volumeMounts ?? []) {
        if (!writable.has(m.name)) out.push(`${at}: mounts ${m.name}, which is not an emptyDir or ephemeral volume`);
      }
      if (!(c.volumeMounts ?? []).some((m) => m.mountPath === '/tmp')) out.push(`${at}: no writable /tmp`);
      // Long-running services need probes; Jobs run to completion and have none.
      if (doc.kind !== 'Job' && doc.kind !== 'CronJob' && !(pod.initContainers ?? []).includes(c)) {
        if (c.livenessProbe?.httpGet?.path !== '/health') out.push(`${at}: no liveness probe on /health`);
        if (c.readinessProbe?.httpGet?.path !== '/ready') out.push(`${at}: no readiness probe on /ready`);
      }
    }
  }
  return out;
}

/**
 * Graceful termination: a preStop sleep, then the service's own drain
 * (SHUTDOWN_TIMEOUT_MS from its ConfigMap), both inside the grace period.
 */
export function terminationViolations(docs) {
  const out = [];
  const configMaps = new Map(docs.filter((d) => d.kind === 'ConfigMap').map((d) => [d.metadata.name, d.data ?? {}]));
  for (const doc of docs.filter((d) => d.kind === 'Deployment')) {
    const pod = podSpecOf(doc);
    for (const c of pod.containers ?? []) {
      const at = `${name(doc)} container ${c.name}`;
      const sleep = c.lifecycle?.preStop?.sleep?.seconds;
      if (!(sleep > 0)) {
        out.push(`${at}: no preStop sleep`);
        continue;
      }
      const cmName = (c.envFrom ?? []).map((e) => e.configMapRef?.name).find(Boolean);
      const drainMs = Number(configMaps.get(cmName)?.SHUTDOWN_TIMEOUT_MS);
      if (!Number.isFinite(drainMs)) {
        out.push(`${at}: SHUTDOWN_TIMEOUT_MS not found in its ConfigMap`);
        continue;
      }
      const grace = pod.terminationGracePeriodSeconds ?? 30;
      if (grace <= sleep + drainMs / 1000) {
        out.push(`${at}: grace period ${grace}s does not exceed preStop ${sleep}s + drain ${drainMs / 1000}s`);
      }
    }
  }
  return out;
}

const matches = (selector, labels) => Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v);

/**
 * Each Deployment has a Service, a PodDisruptionBudget and (when any
 * NetworkPolicy is rendered) a policy selecting its pods, and renders
 * `replicas` exactly when no autoscaler targets it.
 */
export function wiringViolations(docs) {
  const out = [];
  const of = (kind) => docs.filter((d) => d.kind === kind);
  const policies = of('NetworkPolicy');
  for (const dep of of('Deployment')) {
    const labels = dep.spec?.template?.metadata?.labels;
    const at = name(dep);
    if (!matches(dep.spec?.selector?.matchLabels, labels)) out.push(`${at}: selector does not match its pod labels`);
    if (!of('Service').some((s) => s.spec?.selector && matches(s.spec.selector, labels))) out.push(`${at}: no Service selects it`);
    if (!of('PodDisruptionBudget').some((p) => matches(p.spec?.selector?.matchLabels, labels))) out.push(`${at}: no PodDisruptionBudget`);
    if (policies.length > 0) {
      const own = policies.filter((p) => matches(p.spec?.podSelector?.matchLabels, labels) && (p.spec?.ingress || p.spec?.egress));
      if (own.length === 0) out.push(`${at}: NetworkPolicies rendered but none allows its traffic`);
    }
    const scaledBy = [...of('HorizontalPodAutoscaler'), ...of('ScaledObject')].filter(
      (s) => s.spec?.scaleTargetRef?.name === dep.metadata.name,
    );
    if (scaledBy.length > 1) out.push(`${at}: more than one autoscaler targets it`);
    if (scaledBy.length === 1 && dep.spec.replicas !== undefined)
      out.push(`${at}: renders replicas although ${name(scaledBy[0])} owns the count`);
    if (scaledBy.length === 0 && dep.spec.replicas === undefined) out.push(`${at}: no replicas and no autoscaler`);
    const sa = dep.spec?.template?.spec?.serviceAccountName;
    if (!of('ServiceAccount').some((s) => s.metadata.name === sa && s.automountServiceAccountToken === false)) {
      out.push(`${at}: its ServiceAccount ${sa} is not rendered with automountServiceAccountToken: false`);
    }
  }
  // Secrets are referenced, never inlined.
  for (const doc of docs) {
    if (doc.kind === 'Secret') out.push(`${name(doc)}: the chart must not render Secrets`);
    const pod = WORKLOAD_KINDS.has(doc.kind) ? podSpecOf(doc) : undefined;
    for (const c of pod?.containers ?? []) {
      for (const e of c.env ?? []) {
        if (['DATABASE_URL', 'RPC_URL', 'API_KEY_HASHES', 'CURSOR_SECRET'].includes(e.name) && !e.valueFrom?.secretKeyRef) {
          out.push(`${name(doc)} container ${c.name}: ${e.name} is not a secretKeyRef`);
        }
      }
    }
    if (doc.kind === 'ConfigMap') {
      for (const k of Object.keys(doc.data ?? {})) {
        if (/DATABASE_URL|RPC_URL|API_KEY|CURSOR_SECRET|PASSWORD|TOKEN/.test(k))
          out.push(`${name(doc)}: secret-like key ${k} in a ConfigMap`);
      }
    }
  }
  return out;
}
