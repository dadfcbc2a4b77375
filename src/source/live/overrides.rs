//! kubectl's connection flags laid over the kubeconfig, as client-go's `clientcmd` does it
//! (`client_config.go`: `getCluster`, `getAuthInfo`): the cluster and user the context names are
//! copied, the flags written over the copies, and a context made of the two is the one used. A
//! `--server` with no kubeconfig, or none with a usable context, is a cluster of its own (kubectl
//! runs with `--server` alone too).

use kube::config::{
    AuthInfo, Cluster, Context, KubeConfigOptions, Kubeconfig, NamedAuthInfo, NamedCluster, NamedContext,
};

use crate::source::{LiveSpec, Overrides};

/// The name of the cluster, user and context made of the flags.
const FROM_FLAGS: &str = "kubectl-topo/flags";

/// Lay `spec`'s flags over `kubeconfig`: the options to load it with, and the context name to show
/// in messages. Without flags, the options are `--context`, `--cluster` and `--user` as typed.
pub(crate) fn apply(kubeconfig: &mut Kubeconfig, spec: &LiveSpec) -> (KubeConfigOptions, String) {
    let typed = KubeConfigOptions {
        context: spec.context.clone(),
        cluster: spec.cluster.clone(),
        user: spec.user.clone(),
    };
    let shown = spec.context.clone().or_else(|| kubeconfig.current_context.clone());
    let o = &spec.overrides;
    if o.is_empty() {
        return (typed, shown.unwrap_or_default());
    }
    let base = shown.as_ref().and_then(|name| kubeconfig.contexts.iter().find(|c| &c.name == name));
    let base = match (base.and_then(|c| c.context.clone()), &o.server) {
        (Some(context), _) => context,
        // No context to start from: the flags alone, when they name a server.
        (None, Some(_)) => Context::default(),
        // Nothing to lay the flags over: kube says what is missing.
        (None, None) => return (typed, shown.unwrap_or_default()),
    };
    let cluster_name = spec.cluster.as_ref().unwrap_or(&base.cluster);
    let mut cluster = kubeconfig
        .clusters
        .iter()
        .find(|c| &c.name == cluster_name)
        .and_then(|c| c.cluster.clone())
        .unwrap_or_default();
    let user_name = spec.user.as_ref().or(base.user.as_ref());
    let mut user = user_name
        .and_then(|name| kubeconfig.auth_infos.iter().find(|u| &u.name == name))
        .and_then(|u| u.auth_info.clone())
        .unwrap_or_default();
    over_cluster(&mut cluster, o);
    over_user(&mut user, o);
    let name = FROM_FLAGS.to_string();
    kubeconfig.clusters.push(NamedCluster {
        name: name.clone(),
        cluster: Some(cluster),
        ..Default::default()
    });
    kubeconfig.auth_infos.push(NamedAuthInfo {
        name: name.clone(),
        auth_info: Some(user),
        ..Default::default()
    });
    let context = Context { cluster: name.clone(), user: Some(name.clone()), ..base };
    kubeconfig.contexts.push(NamedContext {
        name: name.clone(),
        context: Some(context),
        ..Default::default()
    });
    let shown = shown.filter(|s| kubeconfig.contexts.iter().any(|c| &c.name == s));
    let shown = shown.or_else(|| o.server.clone()).unwrap_or_default();
    (KubeConfigOptions { context: Some(name), cluster: None, user: None }, shown)
}

/// The cluster flags, as `getCluster` merges them: a CA or `--insecure-skip-tls-verify` replaces
/// all three TLS settings; `--server` or `--tls-server-name` replaces the TLS server name.
fn over_cluster(cluster: &mut Cluster, o: &Overrides) {
    if let Some(server) = &o.server {
        cluster.server = Some(server.clone());
    }
    if o.insecure_skip_tls_verify || o.certificate_authority.is_some() {
        cluster.insecure_skip_tls_verify = Some(o.insecure_skip_tls_verify);
        cluster.certificate_authority = o.certificate_authority.as_ref().map(|p| p.display().to_string());
        cluster.certificate_authority_data = None;
    }
    if o.tls_server_name.is_some() || o.server.is_some() {
        cluster.tls_server_name.clone_from(&o.tls_server_name);
    }
}

/// The user flags, as `getAuthInfo` merges them. A `--token` is the credential: the token file,
/// basic auth, exec plugin and auth provider of the kubeconfig user are not used (client-go's
/// exec round tripper also steps aside when a bearer token is set), so no plugin runs for it.
fn over_user(user: &mut AuthInfo, o: &Overrides) {
    if let Some(token) = &o.token {
        user.token = Some(token.0.clone().into());
        user.token_file = None;
        user.username = None;
        user.password = None;
        user.exec = None;
        user.auth_provider = None;
    }
    if let Some(name) = &o.impersonate {
        user.impersonate = Some(name.clone());
        user.impersonate_groups = (!o.impersonate_groups.is_empty()).then(|| o.impersonate_groups.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Secret;

    fn kubeconfig() -> Kubeconfig {
        let text = "apiVersion: v1\nkind: Config\ncurrent-context: c\nclusters:\n- name: k\n  cluster:\n    \
                    server: https://a:6443\n    certificate-authority-data: Zm9v\n    tls-server-name: a\n\
                    contexts:\n- name: c\n  context: {cluster: k, user: u, namespace: ns}\nusers:\n- name: u\n  user:\n    \
                    exec: {command: get-token, apiVersion: client.authentication.k8s.io/v1}\n";
        Kubeconfig::from_yaml(text).unwrap()
    }

    fn spec(overrides: Overrides) -> LiveSpec {
        LiveSpec { overrides: Box::new(overrides), ..LiveSpec::default() }
    }

    fn used(kc: &Kubeconfig) -> (Cluster, AuthInfo, Context) {
        let find = |name: &str| kc.contexts.iter().find(|c| c.name == name).and_then(|c| c.context.clone());
        let context = find(FROM_FLAGS).unwrap();
        let cluster = kc.clusters.iter().find(|c| c.name == FROM_FLAGS).and_then(|c| c.cluster.clone());
        let user = kc.auth_infos.iter().find(|u| u.name == FROM_FLAGS).and_then(|u| u.auth_info.clone());
        (cluster.unwrap(), user.unwrap(), context)
    }

    #[test]
    fn no_flags_leave_the_kubeconfig_as_it_is() {
        let mut kc = kubeconfig();
        let (options, shown) = apply(&mut kc, &spec(Overrides::default()));
        assert_eq!((options.context, shown.as_str()), (None, "c"));
        assert_eq!(kc.contexts.len(), 1);
    }

    #[test]
    fn flags_replace_the_server_ca_and_credentials_of_the_context_used() {
        let mut kc = kubeconfig();
        let overrides = Overrides {
            server: Some("https://b:6443".into()),
            certificate_authority: Some("/ca.pem".into()),
            token: Some(Secret("t0k".into())),
            impersonate: Some("alice".into()),
            impersonate_groups: vec!["devs".into()],
            ..Overrides::default()
        };
        let (options, shown) = apply(&mut kc, &spec(overrides));
        assert_eq!((options.context.as_deref(), shown.as_str()), (Some(FROM_FLAGS), "c"));
        let (cluster, user, context) = used(&kc);
        assert_eq!(cluster.server.as_deref(), Some("https://b:6443"));
        assert_eq!(cluster.certificate_authority.as_deref(), Some("/ca.pem"));
        assert_eq!((cluster.certificate_authority_data, cluster.tls_server_name), (None, None));
        assert!(user.exec.is_none(), "the token replaces the exec plugin");
        assert_eq!(user.impersonate.as_deref(), Some("alice"));
        assert_eq!(user.impersonate_groups, Some(vec!["devs".to_string()]));
        assert_eq!(context.namespace.as_deref(), Some("ns"));
    }

    #[test]
    fn insecure_clears_the_ca_and_a_server_alone_needs_no_kubeconfig() {
        let mut kc = kubeconfig();
        apply(&mut kc, &spec(Overrides { insecure_skip_tls_verify: true, ..Overrides::default() }));
        let (cluster, user, _) = used(&kc);
        assert_eq!(cluster.insecure_skip_tls_verify, Some(true));
        assert_eq!(cluster.certificate_authority_data, None);
        assert_eq!(cluster.tls_server_name.as_deref(), Some("a"), "kept: no --server, no --tls-server-name");
        assert!(user.exec.is_some(), "no --token: the kubeconfig's credentials stay");
        let mut empty = Kubeconfig::default();
        let server = Overrides { server: Some("https://b".into()), ..Overrides::default() };
        let (options, shown) = apply(&mut empty, &spec(server));
        assert_eq!((options.context.as_deref(), shown.as_str()), (Some(FROM_FLAGS), "https://b"));
        assert_eq!(used(&empty).0.server.as_deref(), Some("https://b"));
    }
}
