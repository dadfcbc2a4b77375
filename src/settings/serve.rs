//! `serve`: a live cluster and an address to listen on.

use super::{Job, SettingsError};
use crate::cli::ServeArgs;

/// `serve`: a live cluster, an address to listen on.
pub(super) fn job(a: &ServeArgs) -> Result<Job, SettingsError> {
    let listen = a.listen.parse().map_err(|_| SettingsError::ServeListen(a.listen.clone()))?;
    Ok(Job::Serve { listen, cluster: a.cluster_label.clone() })
}
