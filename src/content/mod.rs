//! What the strings of a record hold: credentials ([`secrets`]) and inline base64 media
//! ([`media`]). Both read strings decoded from the JSON (escapes cannot hide what they look
//! for) behind a prefilter over the raw line that is escape-aware, so a record that cannot
//! hold what a check looks for is never parsed. `lint` asks for them; the replay runs them
//! in its one pass.

pub mod media;
pub mod secrets;

use serde_json::Value;

use crate::decode::Record;
use crate::findings::Finding;

/// Which content checks to run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Checks {
    pub secrets: bool,
    pub media: bool,
}

impl Checks {
    pub fn any(self) -> bool {
        self.secrets || self.media
    }

    /// Judge one record.
    pub fn observe(self, rec: &Record<'_>, out: &mut Vec<Finding>) {
        if self.secrets {
            secrets::check(rec, out);
        }
        if self.media {
            media::check(rec, out);
        }
    }
}

/// The payload as a JSON value (`None` when it does not parse, which the decoder has
/// reported already).
fn payload_value(rec: &Record<'_>) -> Option<Value> {
    serde_json::from_str(rec.payload.get()).ok()
}

/// Call `f` with every string under `v` and its JSON path (`payload.output[0].text`). A
/// string that holds a JSON object or array (tool arguments) is walked too, its path marked
/// `(json)`, to the depth of `nested` such strings.
fn each_string(v: &Value, path: &mut String, nested: u8, f: &mut dyn FnMut(&str, &str)) {
    match v {
        Value::String(s) => {
            f(s, path);
            let t = s.trim_start();
            if nested > 0 && (t.starts_with('{') || t.starts_with('[')) {
                if let Ok(inner) = serde_json::from_str::<Value>(s) {
                    let len = path.len();
                    path.push_str("(json)");
                    each_string(&inner, path, nested - 1, f);
                    path.truncate(len);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                each_string(item, path, nested, f);
                path.truncate(len);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                let len = path.len();
                path.push('.');
                path.push_str(k);
                each_string(item, path, nested, f);
                path.truncate(len);
            }
        }
        _ => {}
    }
}
