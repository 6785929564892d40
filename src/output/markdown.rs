//! `replay --format markdown`: a transcript ([`Transcript`]) written as CommonMark, for a
//! person to read and share.
//!
//! The rollout's texts are untrusted twice over: they must not drive a terminal, and they
//! must not break out of the transcript's own markup. So:
//! - control characters and escape sequences are removed from everything (as for tables),
//!   line breaks and tabs kept;
//! - a command, a patch and an output go in a fenced block whose fence is longer than any
//!   run of backticks the text holds, so nothing in it can close it;
//! - a message or a reasoning summary is Markdown the model or the user wrote, and is kept
//!   as such, inside a block quote (a fence it leaves open ends with the quote), with its
//!   raw HTML, links, images, autolinks, footnotes and link reference definitions escaped
//!   ([`inert`]): a viewer shows them as the text they are;
//! - names, paths and queries are code spans, or text with its punctuation escaped.
//!
//! `--redact-secrets` replaces what `content.secret` finds by a marker naming the kind of
//! secret (`content::secrets::redact_text`), before any of this.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::ops::Range;

use pulldown_cmark::{Event, Options, Parser, Tag};

use crate::analysis::turns::TurnStatus;
use crate::replay::transcript::{Entry, Heading, Image, Input, Outcome, Section, Transcript, View};
use crate::time::Zone;

/// How a transcript is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Lines of an output (and of a command, a patch, an instruction) shown before the cut;
    /// `None`: all.
    pub max_output_lines: Option<usize>,
    /// Replace credentials by a marker.
    pub redact: bool,
    pub zone: Zone,
}

/// The transcript as a Markdown document.
pub fn render(t: &Transcript, s: &Settings) -> String {
    let mut md = String::new();
    let title = t.thread_id.as_deref().unwrap_or("(no thread id)");
    let _ = writeln!(md, "# Session {}\n", text(title, s));
    let _ = writeln!(md, "- File: {}", code_span(&clean(&t.path, s)));
    if let Some(v) = &t.cli_version {
        let _ = writeln!(md, "- Written by: Codex {}", text(v, s));
    }
    let _ = writeln!(md, "- Read as: {}", text(&t.reading, s));
    let _ = writeln!(
        md,
        "- Shows: {}\n",
        match t.view {
            View::History => "what a resume sends the model (the history view)",
            View::Ui => "what a client shows on resume (the ui view)",
        }
    );
    if let Some(e) = &t.error {
        let _ = writeln!(md, "_Not replayed: {}_\n", text(e, s));
    }
    if t.sections.is_empty() {
        md.push_str("_Nothing to show._\n\n");
    }
    for section in &t.sections {
        section_md(&mut md, section, s);
    }
    md
}

fn section_md(md: &mut String, section: &Section, s: &Settings) {
    let heading = match &section.heading {
        Heading::Turn {
            index,
            started,
            status,
        } => {
            let mut h = format!("Turn {index}");
            if let Some(at) = started.as_deref().and_then(|ts| clock(ts, s.zone)) {
                h.push_str(&format!(" · {at}"));
            }
            if let Some(st) = status {
                h.push_str(&format!(" · {}", status_words(*st)));
            }
            h
        }
        Heading::Start => "Before the first turn".to_string(),
        Heading::Source { path } => {
            format!("Inherited from {}", code_span(&clean(path, s)))
        }
        Heading::Compacted { line } => format!("What the compaction at line {line} kept"),
    };
    let _ = writeln!(md, "## {heading}\n");
    for entry in &section.entries {
        entry_md(md, entry, s);
    }
}

fn status_words(st: TurnStatus) -> &'static str {
    match st {
        TurnStatus::RolledBack => "rolled back",
        other => other.as_str(),
    }
}

/// A timestamp on the zone's clock: `2026-11-29 12:00:31 UTC`, `… +01:00`.
fn clock(ts: &str, zone: Zone) -> Option<String> {
    let (at, offset) = zone.clock(ts)?;
    let when = at.format("%Y-%m-%d %H:%M:%S");
    Some(match zone {
        Zone::Utc => format!("{when} UTC"),
        Zone::Local => {
            let sign = if offset < 0 { '-' } else { '+' };
            let m = offset.unsigned_abs() / 60;
            format!("{when} {sign}{:02}:{:02}", m / 60, m % 60)
        }
    })
}

fn entry_md(md: &mut String, entry: &Entry, s: &Settings) {
    match entry {
        Entry::Message { role, text, images } => {
            let (label, cut) = match role.as_str() {
                "user" => ("User".to_string(), false),
                "assistant" => ("Assistant".to_string(), false),
                // Instructions: long, and not what a transcript is read for.
                "developer" => ("Developer (instructions)".to_string(), true),
                "system" => ("System (instructions)".to_string(), true),
                other => (format!("Role {}", code_span(&clean(other, s))), false),
            };
            let _ = writeln!(md, "**{label}**\n");
            let limit = if cut { s.max_output_lines } else { None };
            quote(md, text, limit, s);
            images_md(md, images);
        }
        Entry::Reasoning { summary } => {
            md.push_str("**Reasoning** (summary)\n\n");
            quote(md, summary, None, s);
        }
        Entry::Call {
            name,
            input,
            outcome,
            ..
        } => {
            let _ = writeln!(md, "**Tool call** {}\n", code_span(&clean(name, s)));
            match input {
                Input::Shell(c) => fenced(md, "sh", c, s.max_output_lines, "command", s),
                Input::Patch(p) => fenced(md, "diff", p, s.max_output_lines, "patch", s),
                Input::Arguments(a) => fenced(md, "json", a, s.max_output_lines, "arguments", s),
                Input::None => {}
            }
            match outcome {
                Some(o) => outcome_md(md, o, s),
                None => md.push_str("_No output in the transcript._\n\n"),
            }
        }
        Entry::Output { call_id, outcome } => {
            let id = call_id.as_deref().unwrap_or("(none)");
            let _ = writeln!(
                md,
                "**Output** of call {}, which the transcript does not hold\n",
                code_span(&clean(id, s))
            );
            outcome_md(md, outcome, s);
        }
        Entry::Files { paths } => {
            md.push_str("**Files changed**\n\n");
            for p in paths {
                let _ = writeln!(md, "- {}", code_span(&clean(p, s)));
            }
            md.push('\n');
        }
        Entry::Search { query } => {
            let q = query.as_deref().map(|q| code_span(&clean(q, s)));
            let _ = writeln!(md, "**Web search** {}\n", q.unwrap_or_default());
        }
        Entry::Compaction => md.push_str("_The context was compacted here._\n\n"),
        Entry::Other { kind } => {
            let _ = writeln!(md, "_An item of type {}._\n", code_span(&clean(kind, s)));
        }
    }
}

fn outcome_md(md: &mut String, o: &Outcome, s: &Settings) {
    let mut facts = Vec::new();
    if o.synthetic {
        facts.push("no output was written: Codex sends one of its own".to_string());
    }
    if let Some(st) = &o.status {
        facts.push(clean(st, s).into_owned());
    }
    if let Some(code) = o.exit_code {
        facts.push(format!("exit code {code}"));
    }
    if let Some(ms) = o.duration_ms {
        facts.push(duration(ms));
    }
    if !facts.is_empty() {
        let _ = writeln!(md, "Result: {}\n", text(&facts.join(", "), s));
    }
    if let Some(out) = o.text.as_deref().filter(|t| !t.trim().is_empty()) {
        fenced(md, "text", out, s.max_output_lines, "output", s);
    }
    images_md(md, &o.images);
}

/// `850 ms`, `2.4 s`, `3 min 05 s`.
fn duration(ms: u64) -> String {
    match ms {
        0..1000 => format!("{ms} ms"),
        1000..60_000 => format!("{:.1} s", ms as f64 / 1000.0),
        _ => format!("{} min {:02} s", ms / 60_000, (ms / 1000) % 60),
    }
}

fn images_md(md: &mut String, images: &[Image]) {
    for i in images {
        let what = match (i.remote, i.mime.as_deref(), i.bytes) {
            (true, _, _) => "an image at a link".to_string(),
            (false, mime, bytes) => {
                let mut w = String::from("an inline image");
                if let Some(m) = mime {
                    w.push_str(&format!(
                        " ({})",
                        escape(&crate::output::sanitize::clean(m))
                    ));
                }
                if let Some(b) = bytes {
                    w.push_str(&format!(", {}", size(b)));
                }
                w
            }
        };
        let _ = writeln!(md, "_Not shown: {what}._\n");
    }
}

fn size(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes} bytes"),
        1024..1_048_576 => format!("{:.1} KiB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MiB", bytes as f64 / 1_048_576.0),
    }
}

/// Untrusted text made safe for a terminal (line breaks and tabs kept, `\r\n` as `\n`), and
/// with its credentials redacted when asked.
fn clean<'a>(t: &'a str, s: &Settings) -> Cow<'a, str> {
    let safe = crate::output::sanitize::clean_keeping_lines(t);
    if !s.redact {
        return safe;
    }
    match crate::content::secrets::redact_text(&safe) {
        Cow::Borrowed(_) => safe,
        Cow::Owned(r) => Cow::Owned(r),
    }
}

/// Untrusted text as inline text: on one line, what could open markup escaped.
fn text(t: &str, s: &Settings) -> String {
    escape(&clean(t, s).replace(['\n', '\t'], " "))
}

/// Inline text (never at a line's start) with the characters that can open markup inline
/// backslash-escaped: emphasis, code, links, HTML, entities, tables, strikethrough.
fn escape(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    for c in t.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '!' | '|' | '~'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A code span of one line, its delimiters longer than any backtick run inside.
fn code_span(t: &str) -> String {
    let t = t.replace(['\n', '\t'], " ");
    let ticks = "`".repeat(longest_run(&t, '`') + 1);
    // A span that starts or ends with a backtick (or a space) is padded with spaces.
    let pad = if t.starts_with(['`', ' ']) || t.ends_with(['`', ' ']) {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{t}{pad}{ticks}")
}

fn longest_run(t: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for x in t.chars() {
        run = if x == c { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// Its first `limit` lines, and how many were left out.
fn head(t: &str, limit: Option<usize>) -> (&str, usize) {
    let Some(limit) = limit else {
        return (t, 0);
    };
    let total = t.lines().count();
    if total <= limit {
        return (t, 0);
    }
    let end = t
        .match_indices('\n')
        .nth(limit.saturating_sub(1))
        .map_or(0, |(i, _)| if limit == 0 { 0 } else { i + 1 });
    (t.get(..end).unwrap_or_default(), total - limit)
}

/// A fenced code block of `body` (cut after `limit` lines, the cut said below it): its
/// fence is longer than any backtick run in the body, so the body cannot close it.
fn fenced(md: &mut String, info: &str, body: &str, limit: Option<usize>, what: &str, s: &Settings) {
    let body = clean(body, s);
    let (shown, left) = head(&body, limit);
    if !shown.is_empty() {
        let fence = "`".repeat(3.max(longest_run(shown, '`') + 1));
        let _ = writeln!(md, "{fence}{info}");
        md.push_str(shown);
        if !shown.ends_with('\n') {
            md.push('\n');
        }
        let _ = writeln!(md, "{fence}\n");
    }
    if left > 0 {
        let lines = if left == 1 { "line" } else { "lines" };
        let _ = writeln!(
            md,
            "_{left} more {lines} of the {what} not shown (`--max-output-lines`)._\n"
        );
    }
}

/// Markdown written by the model or a user, inert ([`inert`]) and in a block quote: a
/// fence, a list or an HTML block it leaves open ends with the quote.
fn quote(md: &mut String, t: &str, limit: Option<usize>, s: &Settings) {
    let t = clean(t, s);
    let (shown, left) = head(&t, limit);
    let inert = inert(shown);
    let body = inert.trim_end();
    if body.is_empty() {
        md.push_str("> _(no text)_\n\n");
    } else {
        for line in body.lines() {
            if line.is_empty() {
                md.push_str(">\n");
            } else {
                let _ = writeln!(md, "> {line}");
            }
        }
        md.push('\n');
    }
    if left > 0 {
        let lines = if left == 1 { "line" } else { "lines" };
        let _ = writeln!(
            md,
            "_{left} more {lines} not shown (`--max-output-lines`)._\n"
        );
    }
}

/// The parser's reading of untrusted Markdown: CommonMark with the extensions GitHub
/// renders (tables, strikethrough, task lists, footnotes).
fn parser(t: &str) -> Parser<'_> {
    Parser::new_ext(
        t,
        Options::ENABLE_TABLES
            | Options::ENABLE_STRIKETHROUGH
            | Options::ENABLE_TASKLISTS
            | Options::ENABLE_FOOTNOTES,
    )
}

/// Markdown with everything that would make an element the text did not write out as text
/// made text: raw HTML (its `<` as `&lt;`), links, images and autolinks (their opening
/// bracket or `<` escaped), footnotes, and link reference definitions (which would turn a
/// bracket anywhere in the document into a link). Code spans and blocks are left as they
/// are: nothing in them is markup. Escaping one construct may reveal another (`[a [b](u)](v)`),
/// so it runs until the parser finds none; past a bound, every `<` and `[` is escaped.
pub fn inert(t: &str) -> Cow<'_, str> {
    let mut text = Cow::Borrowed(t);
    for _ in 0..16 {
        let edits = live_markup(&text);
        if edits.is_empty() {
            return text;
        }
        text = Cow::Owned(apply(&text, &edits));
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// An edit of [`inert`]: at this byte, insert a backslash, or replace a `<` by `&lt;`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Edit {
    Backslash(usize),
    Lt(usize),
}

/// The edits that make what the parser reads as HTML, links or definitions in `t` text.
fn live_markup(t: &str) -> Vec<Edit> {
    let mut edits = Vec::new();
    let p = parser(t);
    for def in p
        .reference_definitions()
        .iter()
        .map(|(_, d)| d.span.clone())
    {
        bracket_at(t, def, &mut edits);
    }
    let mut p = p.into_offset_iter();
    for (event, range) in p.by_ref() {
        match event {
            Event::Html(_) | Event::InlineHtml(_) => {
                let start = range.start;
                if let Some(slice) = t.get(range) {
                    edits.extend(slice.match_indices('<').map(|(i, _)| Edit::Lt(start + i)));
                }
            }
            Event::Start(Tag::Link { .. } | Tag::Image { .. } | Tag::FootnoteDefinition(_))
            | Event::FootnoteReference(_) => bracket_at(t, range, &mut edits),
            _ => {}
        }
    }
    edits.sort_unstable();
    edits.dedup();
    edits
}

/// The edit that breaks the construct at `range`: a backslash before its `[` (after an
/// image's `!`) or before an autolink's `<`.
fn bracket_at(t: &str, range: Range<usize>, edits: &mut Vec<Edit>) {
    let Some(slice) = t.get(range.clone()) else {
        return;
    };
    let skip = slice.len() - slice.trim_start().len();
    let at = range.start + skip;
    match t.get(at..).and_then(|r| r.chars().next()) {
        Some('[' | '<') => edits.push(Edit::Backslash(at)),
        Some('!') => edits.push(Edit::Backslash(at + 1)),
        _ => {}
    }
}

fn apply(t: &str, edits: &[Edit]) -> String {
    let mut out = String::with_capacity(t.len() + edits.len() * 4);
    let mut at = 0;
    for e in edits {
        let (pos, lt) = match *e {
            Edit::Backslash(p) => (p, false),
            Edit::Lt(p) => (p, true),
        };
        if pos < at {
            continue;
        }
        out.push_str(t.get(at..pos).unwrap_or_default());
        if lt {
            out.push_str("&lt;");
            at = pos + 1;
        } else {
            out.push('\\');
            at = pos;
        }
    }
    out.push_str(t.get(at..).unwrap_or_default());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The HTML a CommonMark renderer makes of `md`.
    fn html(md: &str) -> String {
        let mut out = String::new();
        pulldown_cmark::html::push_html(&mut out, parser(md));
        out
    }

    #[test]
    fn links_html_and_definitions_become_text() {
        for md in [
            "[x](javascript:alert(1))",
            "![img](http://e/x.png)",
            "<script>alert(1)</script>",
            "a <b onclick=x>b</b>",
            "<http://example.com>",
            "[a [b](u)](v)",
            "[ref]\n\n[ref]: javascript:alert(1)",
            "note[^1]\n\n[^1]: the note",
        ] {
            let out = html(&inert(md));
            for bad in ["<a", "<img", "<script", "<b ", "<sup", "<div"] {
                assert!(!out.contains(bad), "{md:?} → {out:?}");
            }
        }
    }

    #[test]
    fn the_rest_of_the_markdown_is_kept() {
        let md = "**bold** and `<code>` and\n\n```\n<script>[x](y)\n```\n";
        assert_eq!(inert(md), md);
        let out = html(md);
        assert!(out.contains("<strong>bold</strong>"));
        assert!(out.contains("&lt;script&gt;"));
    }

    #[test]
    fn a_fence_is_longer_than_any_backtick_run() {
        let mut md = String::new();
        let s = Settings {
            max_output_lines: None,
            redact: false,
            zone: Zone::Utc,
        };
        fenced(&mut md, "text", "a\n````\nb", None, "output", &s);
        assert!(md.starts_with("`````text\n"), "{md}");
        assert_eq!(
            html(&md),
            "<pre><code class=\"language-text\">a\n````\nb\n</code></pre>\n"
        );
    }

    #[test]
    fn a_cut_says_how_many_lines_are_left_out() {
        assert_eq!(head("a\nb\nc\n", Some(2)), ("a\nb\n", 1));
        assert_eq!(head("a\nb\n", Some(2)), ("a\nb\n", 0));
        assert_eq!(head("a\nb\n", Some(0)), ("", 2));
        assert_eq!(head("a\nb", None), ("a\nb", 0));
    }

    #[test]
    fn code_spans_hold_backticks() {
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(code_span("`x"), "`` `x ``");
    }
}
