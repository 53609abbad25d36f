//! Workspace-level tests live in `tests/tests/`; this library holds what several of them
//! share.

pub mod bundled;
pub mod estimate;
pub mod mahjong;
pub mod oracle;
pub mod sangohana;
