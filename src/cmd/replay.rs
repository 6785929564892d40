//! `rollscope replay`: glue from args to the replay ([`crate::replay`]) and the row schemas
//! in `docs/replay.md`. Files are replayed in parallel, each on its own, and written in
//! input order.

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::analysis::calls::{command, parse_output_meta};
use crate::cli::{FindingFormatArg, JsonFormats, LineLimit, ReplayArgs, ViewArg};
use crate::cmd::Context;
use crate::codex::Reading;
use crate::error::Error;
use crate::exit::ExitStatus;
use crate::findings::{ClientView, Effect, Finding, Outcome, Rule, Severity};
use crate::output::diagnostics::{Report, Shown, Style};
use crate::output::markdown;
use crate::output::table::Tone;
use crate::output::{Cell, Column, Out};
use crate::replay::history::Base;
use crate::replay::item::{At, Item, Origin};
use crate::replay::transcript::Transcript;
use crate::replay::ui::UiRow;
use crate::replay::{Cut, Options, Replayed, TurnRef};
use crate::rules::{Checked, Checker};
use crate::statedb::Homes;
use crate::time::Zone;

/// One history row (`--view history`).
#[derive(Serialize)]
struct HistoryRow<'a> {
    path: &'a str,
    index: usize,
    line: Option<u64>,
    ordinal: Option<u64>,
    origin: Origin,
    item: &'a RawValue,
    codex_version: &'a str,
    codex_version_source: &'static str,
}

/// One diagnostic of the state view.
#[derive(Serialize)]
struct Diagnostic<'a> {
    severity: Severity,
    rule: Rule,
    line: Option<u64>,
    message: &'a str,
    effect: Option<Effect>,
}

impl<'a> Diagnostic<'a> {
    fn of(f: &'a Finding) -> Diagnostic<'a> {
        Diagnostic {
            severity: f.severity,
            rule: f.rule,
            line: f.span.map(|s| s.start_line),
            message: &f.message,
            effect: f.effect,
        }
    }
}

/// A place of the replay: a line of a file it read.
#[derive(Serialize)]
struct Place<'a> {
    path: &'a str,
    line: u64,
    ordinal: Option<u64>,
}

fn place<'a>(r: &'a Replayed, at: &At) -> Place<'a> {
    Place {
        path: r.path_of_file(at.file),
        line: at.line,
        ordinal: at.ordinal,
    }
}

/// One UI row (`--view ui`).
#[derive(Serialize)]
struct UiOut<'a> {
    path: &'a str,
    line: u64,
    turn_index: Option<u64>,
    turn_id: Option<&'a str>,
    turn_status: Option<&'static str>,
    kind: &'a str,
    text: Option<&'a str>,
    #[serde(flatten)]
    fields: &'a Map<String, Value>,
    codex_version: &'a str,
    codex_version_source: &'static str,
}

fn turn_ref(s: &str) -> Result<TurnRef, Error> {
    let s = s.trim();
    if s.is_empty() {
        return Err(Error::Usage("a turn is its number or its id".into()));
    }
    Ok(match s.parse::<u64>() {
        Ok(0) => return Err(Error::Usage("turns are numbered from 1".into())),
        Ok(n) => TurnRef::Index(n),
        Err(_) => TurnRef::Id(s.to_string()),
    })
}

pub fn run(args: &ReplayArgs) -> Result<ExitStatus, Error> {
    let cut = match (&args.through_turn, &args.before_turn) {
        (Some(t), _) => Some(Cut::Through(turn_ref(t)?)),
        (None, Some(t)) => Some(Cut::Before(turn_ref(t)?)),
        (None, None) => None,
    };
    if args.view == ViewArg::State {
        super::no_table(&args.output, "replay --view state")?;
    }
    let format = args.output.format;
    let style = format.style(Style::Listed);
    let markdown = format == FindingFormatArg::Markdown;
    check_format(args, format)?;
    let settings = super::settings(&args.settings)?;
    let mut cx = Context::new(&args.input, &args.output)?;
    // The state view says what a resume does with the file: one Codex cannot decompress
    // is refused, a finding; the other views show what could be read, and the error.
    cx.corrupt_is_finding = args.view == ViewArg::State;
    let opts = Options {
        for_prompt: args.for_prompt,
        cut,
        ui: args.view == ViewArg::Ui,
        ui_outputs: markdown,
        codex: settings.codex,
        lineages: Some(crate::replay::Lineages::default()),
    };
    // What a resume rebuilds is checked by every rule but those about a file's place and
    // content (`lint`'s alone); its name only in a Codex home, where it decides the resume.
    let homes = Homes::new(
        args.state.codex_home.clone(),
        args.state.codex_home_as.clone(),
    );
    let checker = Checker::of_units(|unit| !unit.lint_only)
        .in_home_only()
        .with_columns(style == Some(Style::Sarif))
        .with_digests(style == Some(Style::Sarif))
        .without_fixes()
        .with_state(std::sync::Arc::new(homes));
    let many = cx.sources.len() > 1;
    let mut out = match (args.view, style) {
        _ if markdown => Report::Rows(Out::documents()),
        (ViewArg::History, _) => Report::Rows(cx.out(history_columns(many))?),
        (ViewArg::Ui, _) => Report::Rows(cx.out(ui_columns(many))?),
        (ViewArg::State, None) => Report::Rows(cx.lines()),
        (ViewArg::State, Some(s)) => cx.findings(
            s,
            &checker,
            settings.codex.run_reading(),
            args.root.root.as_deref(),
        ),
    };
    let view = args.view;
    let mut states = 0u64;
    let md = markdown::Settings {
        max_output_lines: args.transcript.max_output_lines.0,
        redact: args.transcript.redact_secrets,
        zone: cx.zone,
    };
    cx.each_replay(&opts, &checker, &mut out, |cx, out, c| match (view, out) {
        (_, Report::Rows(out)) if markdown => emit_markdown(cx, out, &c, view, &md),
        (ViewArg::History, Report::Rows(out)) => emit_history(cx, out, &c),
        (ViewArg::Ui, Report::Rows(out)) => emit_ui(cx, out, &c.replay),
        (_, out) => {
            states += 1;
            emit_state(out, &c)
        }
    })?;
    let rows = match out {
        Report::Rows(out) => {
            let rows = out.rows();
            out.finish()?;
            rows.max(states)
        }
        Report::Findings(mut diag) => {
            diag.problems(&cx.problems);
            diag.finish()?;
            states
        }
    };
    cx.say_if_empty(rows, "history items");
    Ok(cx.status)
}

/// The formats each view prints, and the transcript's flags with the format they serve.
fn check_format(args: &ReplayArgs, format: FindingFormatArg) -> Result<(), Error> {
    // The history and ui views have no SARIF log to filter either.
    if args.view != ViewArg::State && args.output.jq.jq.is_some() && !format.is_json() {
        return Err(super::no_json(format, "ndjson or json"));
    }
    let views_own = matches!(
        format,
        FindingFormatArg::Table
            | FindingFormatArg::Ndjson
            | FindingFormatArg::Json
            | FindingFormatArg::Markdown
    );
    if args.view != ViewArg::State && !views_own {
        return Err(Error::Usage(format!(
            "--format {format}: only `--view state` reports findings (the history and ui \
             views print tables, rows and transcripts: table, ndjson, json, markdown)"
        )));
    }
    if args.view == ViewArg::State && format == FindingFormatArg::Markdown {
        return Err(Error::Usage(
            "--format markdown: the state view has no transcript (the history and ui views \
             have: `--view history` is the default)"
                .into(),
        ));
    }
    let t = &args.transcript;
    if format != FindingFormatArg::Markdown
        && (t.redact_secrets || t.max_output_lines != LineLimit(Some(20)))
    {
        let flag = if t.redact_secrets {
            "--redact-secrets"
        } else {
            "--max-output-lines"
        };
        return Err(Error::Usage(format!(
            "{flag} shapes the transcript of `--format markdown`, not --format {format} (rows \
             stay exact)"
        )));
    }
    Ok(())
}

/// One file's transcript ([`Transcript`]), written as Markdown.
fn emit_markdown(
    cx: &mut Context,
    out: &mut Out,
    c: &Checked,
    view: ViewArg,
    settings: &markdown::Settings,
) -> std::io::Result<()> {
    let r = &c.replay;
    let t = match view {
        ViewArg::Ui => Transcript::of_ui(r),
        _ => Transcript::of_history(r, |item| match r.json(item) {
            Ok(j) => Some(j),
            Err(e) => {
                cx.error(
                    r.path_of(item),
                    &format!("could not read an item back: {e}"),
                );
                None
            }
        }),
    };
    let rows = match view {
        ViewArg::Ui => r.ui.len(),
        _ => r.items.len(),
    };
    out.document(&markdown::render(&t, settings), rows as u64)
}

/// The history view's columns: the file's, then what [`transcript`] makes of an item. A
/// transcript is read for its text: on a narrow terminal it narrows last, and the time
/// goes first (the index and line order the items).
pub fn history_columns(many_files: bool) -> Vec<Column> {
    Column::after_file(
        many_files,
        [
            Column::right("index").rank(4),
            Column::left("time")
                .derived("the timestamp of the record on `line`")
                .clock()
                .rank(1),
            Column::right("line").rank(5),
            Column::left("origin").field("origin").rank(3),
            Column::left("who").field("item").text().rank(7),
            Column::left("text").field("item").wide().rank(9),
            Column::left("result").field("item").text().rank(6),
        ],
    )
}

/// The UI view's columns.
pub fn ui_columns(many_files: bool) -> Vec<Column> {
    Column::after_file(
        many_files,
        [
            Column::right("turn_index").rank(6),
            Column::right("line").rank(5),
            Column::left("kind").rank(8),
            Column::left("text").text().rank(7),
        ],
    )
}

fn emit_history(cx: &mut Context, out: &mut Out, c: &Checked) -> std::io::Result<()> {
    let r = &c.replay;
    let path = r.facts.source.display();
    let file_cells = cx.file_cells(&r.facts.source, &r.facts.session);
    let zone = cx.zone;
    let version = r.reading.version.to_string();
    for (index, item) in r.items.iter().enumerate() {
        let json = match r.json(item) {
            Ok(j) => j,
            Err(e) => {
                cx.error(
                    r.path_of(item),
                    &format!("could not read an item back: {e}"),
                );
                return Ok(());
            }
        };
        // Checked by the decoder's scanner (the bytes may have changed since they were
        // decoded); a full parse would cost more than the rest of the row.
        let Some(raw) = crate::decode::json_value(&json) else {
            cx.error(
                r.path_of(item),
                "an item read back is not JSON (the file changed?)",
            );
            return Ok(());
        };
        let row = HistoryRow {
            path: r.path_of(item),
            index,
            line: item.at.map(|a| a.line),
            ordinal: item.at.and_then(|a| a.ordinal),
            origin: item.origin,
            item: raw,
            codex_version: &version,
            codex_version_source: r.reading.source.as_str(),
        };
        out.row(&row, || {
            let mut cells = file_cells.to_vec();
            cells.extend(transcript(r, item, index, raw.get(), zone));
            cells
        })?;
    }
    if out.is_table() {
        let errors = c.findings.iter().filter(|f| f.is_error()).count();
        if !c.findings.is_empty() {
            let n = c.findings.len();
            let (s, es) = (
                if n == 1 { "" } else { "s" },
                if errors == 1 { "" } else { "s" },
            );
            cx.diag.note(
                &path,
                &format!(
                    "{n} diagnostic{s} ({errors} error{es}): see `rollscope replay --view state`"
                ),
            );
        }
    }
    Ok(())
}

/// A history item as a transcript line: index, time, line, origin, who (role or tool),
/// text excerpt (a tool call's command), and a tool result's exit code and duration.
fn transcript(r: &Replayed, item: &Item, index: usize, json: &str, zone: Zone) -> Vec<Cell> {
    let v: Value = serde_json::from_str(json).unwrap_or(Value::Null);
    let s = |k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let texts = |k: &str| -> String {
        v.get(k)
            .and_then(Value::as_array)
            .map(|parts| {
                parts
                    .iter()
                    .filter_map(|p| p.get("text").and_then(Value::as_str))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default()
    };
    let type_ = s("type");
    let (who, text, result) = match type_.as_str() {
        "message" => (s("role"), texts("content"), String::new()),
        "reasoning" => ("reasoning".into(), texts("summary"), String::new()),
        t if crate::model::answered_call_type(t).is_some() => {
            // Its command, as `calls` shows it, not its JSON arguments.
            let args = match v.get("arguments").or_else(|| v.get("input")) {
                Some(Value::String(a)) => command(a),
                Some(other) => command(&other.to_string()),
                None => v
                    .get("action")
                    .map(|a| command(&a.to_string()))
                    .unwrap_or_default(),
            };
            (format!("call {}", s("name")), args, String::new())
        }
        t if crate::model::is_output_type(t) => {
            let text = match v.get("output") {
                Some(Value::String(o)) => o.clone(),
                Some(other) => other.to_string(),
                None => String::new(),
            };
            let meta = parse_output_meta(&text);
            let mut result = Vec::new();
            if let Some(code) = meta.exit_code {
                result.push(format!("exit {code}"));
            }
            if let Some(ms) = meta.duration_ms {
                result.push(format!("{ms}ms"));
            }
            ("output".into(), text, result.join(", "))
        }
        other => (other.to_string(), String::new(), String::new()),
    };
    let time = item.at.and_then(|a| r.timestamp(&a));
    let tone = match item.origin {
        Origin::Synthetic => Tone::Warn,
        Origin::Record => Tone::Plain,
        _ => Tone::Dim,
    };
    vec![
        Cell::num(index as u64),
        Cell::time(time.as_deref(), zone, true),
        Cell::opt(item.at.map(|a| a.line)),
        Cell::text(item.origin.as_str()).tone(tone),
        Cell::text(&who),
        Cell::text(&text),
        Cell::text(&result),
    ]
}

fn emit_ui(cx: &Context, out: &mut Out, r: &Replayed) -> std::io::Result<()> {
    let path = r.facts.source.display();
    let file_cells = cx.file_cells(&r.facts.source, &r.facts.session);
    let version = r.reading.version.to_string();
    for UiRow {
        turn_index,
        turn_id,
        turn_status,
        item,
    } in &r.ui
    {
        let row = UiOut {
            path: &path,
            line: item.line,
            turn_index: *turn_index,
            turn_id: turn_id.as_deref(),
            turn_status: turn_status.map(|s| s.as_str()),
            kind: &item.kind,
            text: item.text.as_deref(),
            fields: &item.fields,
            codex_version: &version,
            codex_version_source: r.reading.source.as_str(),
        };
        out.row(&row, || {
            let mut cells = file_cells.to_vec();
            cells.extend([
                Cell::opt(*turn_index),
                Cell::num(item.line),
                Cell::text(&item.kind),
                Cell::text(item.text.as_deref().unwrap_or("")),
            ]);
            cells
        })?;
    }
    Ok(())
}

/// The state row (`--view state`, schema in `docs/replay.md`): borrowed throughout, so the
/// world state and turn context are written as they were made, never copied.
#[derive(Serialize)]
struct StateRow<'a> {
    path: &'a str,
    outcome: Outcome,
    /// The message of the finding the outcome rests on (the refusal, the first loss).
    outcome_reason: Option<&'a str>,
    client_view: Option<ClientView>,
    codex_version: String,
    codex_version_source: &'static str,
    session_id: Option<&'a str>,
    thread_id: Option<&'a str>,
    history_mode: &'a str,
    cli_version: Option<&'a str>,
    files: Vec<FileOut<'a>>,
    cut: Option<CutOut<'a>>,
    history: HistoryOut<'a>,
    rollbacks: Vec<RollbackOut<'a>>,
    rolled_back_turns: Vec<u64>,
    turn_context: Option<AtValue<'a>>,
    world_state: Option<&'a Value>,
    world_state_base: Option<Place<'a>>,
    world_state_patches: u64,
    token_info: Option<AtValue<'a>>,
    open_turn: Option<OpenTurn<'a>>,
    diagnostics: Vec<Diagnostic<'a>>,
}

#[derive(Serialize)]
struct FileOut<'a> {
    /// The path as a JSON string ([`crate::replay::ReadFile::path_json`]).
    path: &'a RawValue,
    end_ordinal_exclusive: Option<u64>,
    records: u64,
}

#[derive(Serialize)]
struct CutOut<'a> {
    through: bool,
    turn_index: u64,
    turn_id: Option<&'a str>,
    last_line: u64,
}

#[derive(Serialize)]
struct HistoryOut<'a> {
    items: usize,
    prompt_items: usize,
    base: BaseOut<'a>,
    compactions: u64,
}

#[derive(Serialize)]
struct BaseOut<'a> {
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ordinal: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    window_number: Option<u64>,
}

#[derive(Serialize)]
struct RollbackOut<'a> {
    path: &'a str,
    line: u64,
    num_turns: u32,
    items_dropped: usize,
}

/// A value and where it was read: `{path, line, ordinal, <key>: value}`.
#[derive(Serialize)]
struct AtValue<'a> {
    path: &'a str,
    line: u64,
    ordinal: Option<u64>,
    #[serde(flatten)]
    value: Map1<'a>,
}

/// One member, named at run time (`context`, `info`).
struct Map1<'a>(&'static str, &'a Value);

impl Serialize for Map1<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(self.0, self.1)?;
        m.end()
    }
}

#[derive(Serialize)]
struct OpenTurn<'a> {
    index: u64,
    turn_id: Option<&'a str>,
    line: u64,
}

fn at_value<'a>(r: &'a Replayed, at: &At, key: &'static str, v: &'a Value) -> AtValue<'a> {
    AtValue {
        path: place(r, at).path,
        line: at.line,
        ordinal: at.ordinal,
        value: Map1(key, v),
    }
}

fn emit_state(out: &mut Report, c: &Checked) -> std::io::Result<()> {
    let r = &c.replay;
    let findings = &c.findings;
    let path = r.facts.source.display();
    let diag = match out {
        Report::Rows(out) => return out.row(&state_row(&path, r, findings), Vec::new),
        Report::Findings(diag) => diag,
    };
    diag.note(|| state_lines(&path, r))?;
    for f in findings {
        let excerpt = match (diag.style(), f.span) {
            (Style::Human, Some(s)) => r.excerpt(
                crate::decode::Pos {
                    line: s.start_line,
                    offset: s.line_offset,
                },
                200,
            ),
            _ => None,
        };
        let shown = Shown {
            path: &path,
            finding: f,
            excerpt: excerpt.as_deref(),
            label: "",
            codex: r.reading,
        };
        diag.write(&shown)?;
    }
    diag.note(|| vec![verdict(findings, &r.reading)])
}

/// What the history rests on, as the state row says it.
fn base_out(r: &Replayed) -> BaseOut<'_> {
    match r.base {
        Base::Start => BaseOut {
            kind: "start",
            path: None,
            line: None,
            ordinal: None,
            window_number: None,
        },
        Base::Replacement { at, window } => BaseOut {
            kind: "replacement_history",
            path: Some(place(r, &at).path),
            line: Some(at.line),
            ordinal: at.ordinal,
            window_number: window,
        },
        Base::Rebuild { at } => BaseOut {
            kind: "compaction_rebuild",
            path: Some(place(r, &at).path),
            line: Some(at.line),
            ordinal: at.ordinal,
            window_number: None,
        },
    }
}

/// The state view's row (`docs/replay.md`).
fn state_row<'a>(path: &'a str, r: &'a Replayed, findings: &'a [Finding]) -> StateRow<'a> {
    let s = &r.facts.session;
    let st = &r.state;
    let (outcome, client_view, reason) = outcome(findings);
    StateRow {
        path,
        outcome,
        outcome_reason: reason.map(|f| f.message.as_str()),
        client_view,
        codex_version: r.reading.version.to_string(),
        codex_version_source: r.reading.source.as_str(),
        session_id: s.session_id.as_deref(),
        thread_id: s.thread_id.as_deref(),
        history_mode: s.mode(),
        cli_version: s.cli_version.as_deref(),
        files: r
            .files
            .listed()
            .map(|f| FileOut {
                path: &f.path_json,
                end_ordinal_exclusive: f.end_ordinal,
                records: f.records,
            })
            .collect(),
        cut: r.cut.as_ref().map(|c| CutOut {
            through: c.through,
            turn_index: c.turn_index,
            turn_id: c.turn_id.as_deref(),
            last_line: c.last_line,
        }),
        history: HistoryOut {
            items: r.history_len,
            prompt_items: r.prompt_len,
            base: base_out(r),
            compactions: r.compactions,
        },
        rollbacks: r
            .rollbacks
            .iter()
            .map(|b| RollbackOut {
                path: place(r, &b.at).path,
                line: b.at.line,
                num_turns: b.num_turns,
                items_dropped: b.items_dropped,
            })
            .collect(),
        rolled_back_turns: r
            .facts
            .turns
            .iter()
            .flat_map(|t| &t.turns)
            .filter(|t| t.status == crate::analysis::turns::TurnStatus::RolledBack)
            .map(|t| t.index)
            .collect(),
        turn_context: st
            .turn_context
            .as_ref()
            .map(|(at, v)| at_value(r, at, "context", v)),
        world_state: st.world_state.as_ref(),
        world_state_base: st.world_state_base.as_ref().map(|at| place(r, at)),
        world_state_patches: st.world_state_patches,
        token_info: st
            .token_info
            .as_ref()
            .map(|(at, v)| at_value(r, at, "info", v)),
        open_turn: r.open_turn().map(|t| OpenTurn {
            index: t.index,
            turn_id: t.turn_id.as_deref(),
            line: t.line_start,
        }),
        diagnostics: findings.iter().map(Diagnostic::of).collect(),
    }
}

/// The state view's first lines, for people: the thread, its history and what it rests on,
/// the files read first, its settings, an open turn.
fn state_lines(path: &str, r: &Replayed) -> Vec<Cell> {
    let s = &r.facts.session;
    let mut lines = Vec::new();
    let base = match r.base {
        Base::Start => "the start of the thread".to_string(),
        Base::Replacement { at, window } => format!(
            "the compaction at {}:{}{}",
            place(r, &at).path,
            at.line,
            window.map(|w| format!(" (window {w})")).unwrap_or_default()
        ),
        Base::Rebuild { at } => format!("the legacy compaction rebuilt at line {}", at.line),
    };
    lines.push(Cell::text(&format!(
        "{path}: {} thread {}, Codex {}: {} history items resting on {base}",
        s.mode(),
        s.thread_id.as_deref().unwrap_or("?"),
        s.cli_version.as_deref().unwrap_or("?"),
        r.history_len
    )));
    for f in r.files.listed().skip(1) {
        lines.push(Cell::text(&format!(
            "  reads {} records of {} first (ordinals below {})",
            f.records,
            f.path,
            f.end_ordinal.unwrap_or(0)
        )));
    }
    if let Some((at, v)) = &r.state.turn_context {
        lines.push(Cell::text(&format!(
            "  turn context of line {}: model {}",
            at.line,
            v.get("model").and_then(Value::as_str).unwrap_or("-")
        )));
    }
    if let Some(t) = r.open_turn() {
        lines.push(Cell::text(&format!(
            "  turn {} is still open (line {})",
            t.index, t.line_start
        )));
    }
    lines
}

/// What a resume of the file does, as its findings' effects say, and the finding that
/// decides it (the refusal, or the first loss).
fn outcome(findings: &[Finding]) -> (Outcome, Option<ClientView>, Option<&Finding>) {
    let (outcome, client) = Outcome::of(findings.iter().filter_map(|f| f.effect));
    let deciding = match outcome {
        Outcome::Refused => Some(Effect::Refused),
        Outcome::ResumesWithLoss => Some(Effect::Loses),
        Outcome::Resumes => None,
    };
    let reason = deciding.and_then(|e| findings.iter().find(|f| f.effect == Some(e)));
    (outcome, client, reason)
}

/// The state view's last line: the outcome and what a client is shown, under which Codex
/// version, then the counts.
fn verdict(findings: &[Finding], reading: &Reading) -> Cell {
    let (outcome, client, reason) = outcome(findings);
    let errors = findings.iter().filter(|f| f.is_error()).count();
    let warnings = findings
        .iter()
        .filter(|f| f.severity == Severity::Warning)
        .count();
    let plural = |n: usize, what: &str| match n {
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    };
    let mut head = outcome.as_str().to_string();
    if let Some(c) = client {
        head.push_str(&format!(", client view {}", c.as_str()));
    }
    let mut counts = Vec::new();
    if errors > 0 {
        counts.push(plural(errors, "error"));
    }
    if warnings > 0 {
        counts.push(plural(warnings, "warning"));
    }
    let counts = if counts.is_empty() {
        "clean".to_string()
    } else {
        counts.join(", ")
    };
    let why = reason
        .map(|f| format!(": {}", f.message))
        .unwrap_or_default();
    let tone = match (outcome, client) {
        (Outcome::Resumes, Some(ClientView::Complete)) if warnings == 0 => Tone::Good,
        (Outcome::Resumes, _) => Tone::Warn,
        _ => Tone::Bad,
    };
    Cell::text(&format!("  {head}, as {reading} reads it: {counts}{why}")).tone(tone)
}
