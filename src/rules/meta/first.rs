//! `meta.first`: a first record Codex cannot read as the session metadata.

use crate::analysis::ordinal::{Fault, Head, Problem};
use crate::codex::{Answer, Behaviour, Reading};
use crate::decode::{Kind, Record};
use crate::findings::{Edit, Effect, Fix};
use crate::rules::words::short;
use crate::rules::{Facts, Found, Hook, Kinds, RecordCx, Stage, Unit};

rule! {
    /// **Checks.** The first non-blank line is a decodable `session_meta`: a `session_meta`
    /// record whose `id`, `timestamp`, `cwd`, `originator` and `cli_version` are strings.
    ///
    /// **Why it matters.** Codex's resume and append paths require it: another first record
    /// is refused ("does not start with session metadata"), a mistyped field too ("failed to
    /// read session metadata", verified with 0.171 on a numeric `cli_version`), and the
    /// listing hides the thread.
    ///
    /// **Example.** An `event_msg` written before the `session_meta`; `"cli_version": 171`.
    ///
    /// **Fix.** Write `session_meta` first, with the fields Codex writes, as strings.
    ///
    /// The fix (safe) moves a `session_meta` found later in the file to the head (where the
    /// ordinals allow: in a paginated file, only one numbered below the first record), or
    /// deletes a first line Codex cannot parse when a `session_meta` follows it: the file is
    /// then one Codex resumes, as written (the fixture fixed is its clean twin, byte for byte:
    /// `tests/cli/fixes.rs`).
    "meta.first", Error, "the first record is not a decodable session_meta",
    effect: Refused,
    fix: Sometimes [Safe],
}

pub const UNIT: Unit = Unit::new(
    RULE,
    &[
        Hook::file(Stage::Ordinals, head),
        Hook::file(Stage::Head, head),
        Hook::record(Stage::MetaFields, Kinds::of(&[Kind::SessionMeta]), fields),
    ],
);

/// What the version does with a file whose first record is another one.
fn not_first_effect(r: &Reading) -> Effect {
    match r.answer(Behaviour::MetaNotFirst) {
        Answer::Refuses => Effect::Refused,
        _ => Effect::Warns,
    }
}

/// A file's head, as its ordinal check found it (a paginated file's among its ordinal
/// problems, another's apart).
fn head(facts: &Facts<'_>, out: &mut Found<'_>) {
    for (nth, p) in facts.heads(out.stage()) {
        found(facts, nth, p, out);
    }
}

fn found(facts: &Facts<'_>, nth: usize, p: &Problem, out: &mut Found<'_>) {
    // Where the session_meta is, if the file has one below the head.
    let meta = facts
        .ordinals()
        .and_then(|o| o.meta)
        .filter(|m| m.pos.line > p.at.pos.line);
    let fix = fix(facts, p, out);
    let message = match &p.fault {
        Fault::Head(Head::FirstLineUnreadable(bad)) => format!(
            "Codex cannot parse the first line ({bad}){}: its resume fails (\"failed to \
             parse first rollout record\")",
            match meta {
                Some(m) => format!(", before the session_meta at line {}", m.pos.line),
                None => String::new(),
            }
        ),
        Fault::Head(Head::FirstRecordNotMeta { type_name }) => {
            let v = facts.codex.version;
            let first = match meta {
                Some(m) => format!(
                    "the first record is `{}`, and session_meta is at line {}",
                    short(type_name),
                    m.pos.line
                ),
                None => format!(
                    "the first record is `{}`, and no session_meta follows",
                    short(type_name)
                ),
            };
            if not_first_effect(&facts.codex) == Effect::Refused {
                format!(
                    "{first}: Codex {v}'s resume fails (\"does not start with session \
                     metadata\")"
                )
            } else {
                format!(
                    "{first}: Codex {v} takes the first session_meta it finds and resumes \
                     (0.147 and later refuse)"
                )
            }
        }
        _ => return,
    };
    // What to do now, when a fix can do it.
    let message = match &fix {
        Some(f) => format!("{message}; `rollscope repair` can {}", f.description),
        None => message,
    };
    let effect = match p.fault {
        Fault::Head(Head::FirstRecordNotMeta { .. }) => not_first_effect(&facts.codex),
        _ => Effect::Refused,
    };
    let f = out.push_nth(nth, Some(p.at), message);
    f.effect(effect);
    f.fix = fix;
}

/// Bring the file's `session_meta` to its head: move it there from further down, or, when
/// it follows a first line Codex cannot parse, delete that line.
fn fix(facts: &Facts<'_>, p: &Problem, out: &Found<'_>) -> Option<Fix> {
    let meta = facts.ordinals()?.meta?;
    let head = &p.at;
    if meta.pos.line <= head.pos.line {
        return None;
    }
    let file = out.file().clone();
    match &p.fault {
        Fault::Head(Head::FirstLineUnreadable(_)) if meta.pos.offset == head.next() => {
            Some(Fix::safe(
                "delete the line before session_meta",
                vec![Edit::delete_line(file, head)],
            ))
        }
        Fault::Head(Head::FirstRecordNotMeta { .. }) => {
            let (meta_ordinal, _) = facts.record_at(&meta)?;
            let (head_ordinal, _) = facts.record_at(head)?;
            // Moved, the ordinals must still grow.
            if meta_ordinal.zip(head_ordinal).is_some_and(|(m, h)| m >= h)
                || meta_ordinal.is_some() != head_ordinal.is_some()
            {
                return None;
            }
            let mut text = String::from_utf8(facts.bytes(&meta)?).ok()?;
            text.push_str(if meta.eol == 2 { "\r\n" } else { "\n" });
            Some(Fix::safe(
                "move session_meta to the head of the file",
                vec![
                    Edit::insert(file.clone(), head.pos.offset, text),
                    Edit::delete_line(file, &meta),
                ],
            ))
        }
        _ => None,
    }
}

/// The fields every Codex version writes in `session_meta` and requires as strings (the
/// oldest files hold exactly these): one absent or mistyped makes Codex refuse the file
/// ("failed to read session metadata", verified with 0.171 on a `cli_version` written as a
/// number).
const REQUIRED: [&str; 5] = ["id", "timestamp", "cwd", "originator", "cli_version"];

/// The first `session_meta`'s fields.
fn fields(rec: &Record<'_>, cx: &RecordCx<'_>, out: &mut Found<'_>) {
    if !cx.is_first_meta(rec) {
        return;
    }
    let values = rec.payload_fields(REQUIRED);
    let wrong = REQUIRED.iter().zip(values).find_map(|(&field, v)| {
        let found = match v.and_then(|v| v.as_bytes().first().copied()) {
            Some(b'"') => return None,
            None => None,
            Some(b'{') => Some("an object"),
            Some(b'[') => Some("an array"),
            Some(b'n') => Some("null"),
            Some(b't' | b'f') => Some("a boolean"),
            Some(_) => Some("a number"),
        };
        Some((field, found))
    });
    let Some((field, found)) = wrong else { return };
    let what = match found {
        Some(kind) => format!("session_meta.{field} is {kind}, not a string"),
        None => format!("session_meta has no {field}"),
    };
    out.push_rec(
        rec,
        format!(
            "{what}: Codex cannot read the session metadata and refuses the file (\"failed to \
             read session metadata\")"
        ),
    );
}
