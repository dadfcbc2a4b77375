//! `serve`: a live cluster and an address to listen on.

use super::{Job, SettingsError};
use crate::cli::{GlobalArgs, ServeArgs};

/// `serve`: a live cluster, an address to listen on.
pub(super) fn job(a: &ServeArgs, g: &GlobalArgs) -> Result<Job, SettingsError> {
    if !g.from_file.is_empty() {
        return Err(SettingsError::ServeFromFile);
    }
    let listen = a.listen.parse().map_err(|_| SettingsError::ServeListen(a.listen.clone()))?;
    Ok(Job::Serve { listen, cluster: a.cluster_label.clone() })
}
