//! Images as Codex prepares them before sending: replaced, or resized. Both read
//! [`RecordCx::images`](crate::rules::RecordCx::images): each image decoded once.

group![replaced, resized];
