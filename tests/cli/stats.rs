//! `rollscope stats`.
