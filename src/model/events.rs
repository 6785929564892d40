//! Turn events: the `event_msg` payloads that shape turns.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use super::lenient::{lenient_opt_u64, lenient_str, raw_str, raw_text};

/// `event_msg` payloads that shape turns: `task_started`, `task_complete`, `turn_aborted`,
/// `thread_rolled_back`, `user_message`, `agent_message` (the fields `turns` reads).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TurnEvent<'a> {
    #[serde(borrow, deserialize_with = "lenient_str")]
    pub turn_id: Option<Cow<'a, str>>,
    /// 0.171: `task_started.turn_attribution.turn_id` (the same id, nested).
    #[serde(borrow)]
    pub turn_attribution: Option<&'a RawValue>,
    /// `turn_aborted.reason` (`interrupted`, `replaced`, ...).
    #[serde(borrow)]
    pub reason: Option<&'a RawValue>,
    /// `task_complete.error`: present and not null on a failed turn.
    #[serde(borrow)]
    pub error: Option<&'a RawValue>,
    /// `task_complete.last_agent_message`, as written: read with
    /// [`TurnEvent::last_agent_message`] only by whoever wants the text (a long reply is
    /// neither copied nor unescaped for the turn's status).
    #[serde(borrow)]
    last_agent_message: Option<&'a RawValue>,
    #[serde(deserialize_with = "lenient_opt_u64")]
    pub duration_ms: Option<u64>,
    /// `thread_rolled_back.num_turns`.
    #[serde(deserialize_with = "lenient_opt_u64")]
    pub num_turns: Option<u64>,
    /// `user_message.message` / `agent_message.message`, as written ([`TurnEvent::message`]).
    #[serde(borrow)]
    message: Option<&'a RawValue>,
}

impl<'a> TurnEvent<'a> {
    /// The text of `last_agent_message`, read leniently (a string; anything else is
    /// absent).
    pub fn last_agent_message(&self) -> Option<Cow<'a, str>> {
        self.last_agent_message.and_then(raw_str)
    }

    /// The text of `message`, read leniently.
    pub fn message(&self) -> Option<Cow<'a, str>> {
        self.message.and_then(raw_str)
    }

    /// The turn id, top-level or in `turn_attribution`.
    pub fn turn_id(&self) -> Option<String> {
        if let Some(t) = &self.turn_id {
            return Some(t.to_string());
        }
        #[derive(Deserialize)]
        struct Attribution<'b> {
            #[serde(borrow, default, deserialize_with = "lenient_str")]
            turn_id: Option<Cow<'b, str>>,
        }
        let a: Attribution<'_> = serde_json::from_str(self.turn_attribution?.get()).ok()?;
        a.turn_id.map(Cow::into_owned)
    }

    /// `reason` as text (a string, or the JSON of anything else).
    pub fn reason_text(&self) -> Option<String> {
        self.reason.map(|r| raw_text(r).into_owned())
    }

    /// `error` as text when it is set: a string, an object's `message`, or its JSON.
    pub fn error_text(&self) -> Option<String> {
        let e = self.error?;
        if e.get() == "null" {
            return None;
        }
        if let Some(s) = raw_str(e) {
            return Some(s.into_owned());
        }
        let v: Value = serde_json::from_str(e.get()).ok()?;
        Some(
            v.get("message")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| v.to_string()),
        )
    }
}

/// An `item_completed` event's item type (`UserMessage`, `AgentMessage`, `Plan`, ...), read
/// without parsing the (often large) item.
pub fn completed_item_type<'a>(rec: &crate::decode::Record<'a>) -> Option<Cow<'a, str>> {
    let item = rec.payload_field("item")?;
    crate::decode::select::fields(item, ["type"])
        .and_then(|[t]| t)
        .and_then(crate::decode::select::str_value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ToolItem;

    #[test]
    fn lenient_views_read_strings_and_tolerate_the_rest() {
        let ev: TurnEvent<'_> = serde_json::from_str(
            r#"{"turn_id":null,"turn_attribution":{"turn_id":"t\u00e9"},"message":"a\nb","reason":{"kind":"x"},"error":null}"#,
        )
        .unwrap();
        assert_eq!(ev.turn_id(), Some("t\u{e9}".to_string()));
        assert_eq!(ev.message().as_deref(), Some("a\nb"));
        assert_eq!(ev.reason_text().as_deref(), Some(r#"{"kind":"x"}"#));
        assert_eq!(ev.error_text(), None);
        let item: ToolItem<'_> =
            serde_json::from_str(r#"{"type":"function_call","call_id":5,"name":null}"#).unwrap();
        assert_eq!((item.call_id, item.name), (None, None));
    }
}
