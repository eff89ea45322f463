//! Exchange-type matching rules: which bindings of an exchange a message matches.
pub mod headers;
pub mod topic;
