//! Typed, lenient views of the payloads the reducers read.
//!
//! Every struct here borrows what it can and defaults every field, so a payload with
//! missing or extra fields still decodes: schema drift across Codex versions must degrade
//! to "absent", never to a rejected record. Only the fields some reducer needs are named;
//! everything else stays in the raw payload untouched.

mod content;
mod events;
mod lenient;
mod meta;
mod scaffolding;
mod tools;
mod usage;

pub use content::{Content, Message, Part, RawContent};
pub use events::{completed_item_type, TurnEvent};
pub use lenient::{raw_str, raw_text};
pub use meta::{HistoryBase, SessionMeta, TurnContext};
pub use scaffolding::is_contextual_fragment;
pub use tools::{
    answer_of, answered_call_type, is_call_type, is_output_type, output_text, server_search_output,
    CallType, ItemCompleted, OutputText, OutputType, ToolItem, ToolOutcome, CALL_TYPES,
    OUTPUT_TYPES,
};
pub use usage::{TokenCount, TokenCountInfo, TokenUsageRecord, Usage};
