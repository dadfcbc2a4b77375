//! Unit tests of the analyses every `explain` runs besides the verdict: replicas needed, and the
//! traffic origins and routing of the cross-zone share.

mod crosszone;
mod crosszone_groups;
mod replicas;
mod summary_only;
