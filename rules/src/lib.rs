//! placeholder
pub mod native;
