//! `--format sarif`: one SARIF 2.1.0 log for the whole run, built with `serde-sarif`'s
//! typed model and written once the run ends. The driver's rules are the rules the run
//! reports, in registry order, described from the registry; each finding is one result
//! pointing at its rule by id and index, located at its file and span.

use std::io;
use std::path::Path;

use serde_json::{json, Value};
use serde_sarif::sarif::{
    ArtifactLocation, Location, LogicalLocation, Message, MultiformatMessageString,
    PhysicalLocation, PropertyBag, Region, ReportingConfiguration, ReportingDescriptor,
    Result as SarifResult, ResultColumnKind, ResultLevel, Run, Sarif, Tool, ToolComponent,
};

use super::rules::doc_markdown;
use crate::codex::Reading;
use crate::findings::{Finding, Rule, Severity};
use crate::input::Source;
use crate::rules::SECTIONS;

/// The published SARIF 2.1.0 schema (OASIS, errata 01).
const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The artifact URI of standard input (`-`): the stream's name on Unix.
pub const STDIN_URI: &str = "file:///dev/stdin";

/// The run's log, filled one finding at a time.
pub struct Log {
    rules: Vec<Rule>,
    results: Vec<SarifResult>,
    /// The Codex version the rules' default levels are given for (the run's; the newest
    /// for `--codex file`).
    codex: Reading,
}

impl Log {
    /// A log whose driver describes `rules` (the rules the run reports).
    pub fn new(rules: Vec<Rule>, codex: Reading) -> Log {
        Log {
            rules,
            results: Vec::new(),
            codex,
        }
    }

    /// One finding, in a file read as `codex`.
    pub fn push(&mut self, f: &Finding, codex: &Reading) {
        let mut artifact = ArtifactLocation::default();
        match &f.file {
            Source::File(p) => artifact.uri = Some(uri(p)),
            Source::Stdin => {
                artifact.uri = Some(STDIN_URI.to_string());
                artifact.description = Some(text("standard input"));
            }
        }
        // Columns in Unicode scalar values, the end past the last character.
        // Columns in Unicode scalar values, the end past the last character (absent: the
        // end of the line, as SARIF reads it).
        let region = f.span.map(|s| {
            let mut r = Region::builder()
                .start_line(s.start_line as i64)
                .start_column(s.start_column as i64)
                .end_line(s.end_line as i64)
                .byte_offset(s.line_offset as i64)
                .build();
            r.end_column = s.end_column.map(|c| c as i64);
            r
        });
        let physical = PhysicalLocation {
            artifact_location: Some(artifact),
            region,
            ..PhysicalLocation::default()
        };
        let mut location = Location::builder().physical_location(physical).build();
        // A database row (`threads[<id>]`): where in a file that is not a rollout.
        location.logical_locations = f.logical.as_ref().map(|name| {
            vec![LogicalLocation {
                fully_qualified_name: Some(name.clone()),
                kind: Some("element".to_string()),
                ..LogicalLocation::default()
            }]
        });
        let mut result = SarifResult::builder()
            .rule_id(f.rule.slug())
            .level(level(f.severity))
            .message(text(&f.message))
            .locations(vec![location])
            .properties(result_properties(f, codex))
            .build();
        result.rule_index = self
            .rules
            .iter()
            .position(|&r| r == f.rule)
            .map(|i| i as i64);
        self.results.push(result);
    }

    /// The whole log.
    pub fn sarif(self) -> Sarif {
        let mut driver = ToolComponent::builder()
            .name("rollscope")
            .version(env!("CARGO_PKG_VERSION"))
            .rules(
                self.rules
                    .iter()
                    .map(|&r| descriptor(r, &self.codex))
                    .collect::<Vec<_>>(),
            )
            .build();
        driver.information_uri = information_uri().map(str::to_string);
        let mut run = Run::builder()
            .tool(Tool::builder().driver(driver).build())
            .results(self.results)
            .build();
        // The Codex version the run reads files as (each result says its file's).
        run.properties = Some(
            PropertyBag::builder()
                .additional_properties([
                    (
                        "codex_version".to_string(),
                        Value::String(self.codex.version.to_string()),
                    ),
                    (
                        "codex_version_source".to_string(),
                        Value::String(self.codex.source.as_str().to_string()),
                    ),
                ])
                .build(),
        );
        // Regions count columns in Unicode scalar values (SARIF's default is UTF-16).
        run.column_kind = Some(json!(ResultColumnKind::UnicodeCodePoints));
        Sarif::builder()
            .schema(SCHEMA)
            .version(json!("2.1.0"))
            .runs(vec![run])
            .build()
    }

    /// Write the log to stdout, indented, with a final newline.
    pub fn finish(self) -> io::Result<()> {
        let mut bytes = serde_json::to_vec_pretty(&self.sarif())?;
        bytes.push(b'\n');
        super::raw(&bytes)
    }
}

/// Where rollscope is documented: the package's repository, when `Cargo.toml` names one.
fn information_uri() -> Option<&'static str> {
    Some(env!("CARGO_PKG_REPOSITORY")).filter(|u| !u.is_empty())
}

fn text(s: &str) -> Message {
    Message::builder().text(s).build()
}

/// A text and its Markdown.
fn multiformat(markdown: &str) -> MultiformatMessageString {
    MultiformatMessageString::builder()
        .text(plain(markdown))
        .markdown(markdown)
        .build()
}

/// A result's properties: the Codex version its file was read as, and what its defect does
/// there.
fn result_properties(f: &Finding, codex: &Reading) -> PropertyBag {
    let mut props = vec![
        (
            "codex_version".to_string(),
            Value::String(codex.version.to_string()),
        ),
        (
            "codex_version_source".to_string(),
            Value::String(codex.source.as_str().to_string()),
        ),
    ];
    if let Some(e) = f.effect {
        props.push(("effect".to_string(), Value::String(e.as_str().to_string())));
    }
    PropertyBag::builder()
        .additional_properties(
            props
                .into_iter()
                .collect::<std::collections::BTreeMap<_, _>>(),
        )
        .build()
}

/// `error`, `warning`, `note` (for info).
fn level(s: Severity) -> ResultLevel {
    match s {
        Severity::Error => ResultLevel::Error,
        Severity::Warning => ResultLevel::Warning,
        Severity::Info => ResultLevel::Note,
    }
}

/// A rule as SARIF describes it: its slug, summary, documentation (what it checks and why as
/// the full description; all of it, the fix included, as the help), default level, group.
fn descriptor(rule: Rule, codex: &Reading) -> ReportingDescriptor {
    let doc = doc_markdown(rule);
    let about = doc.split(SECTIONS[2]).next().unwrap_or(&doc).trim_end();
    let config = ReportingConfiguration::builder()
        .level(json!(level(crate::rules::severity_under(rule, codex))))
        .build();
    let group = rule.group().to_string();
    let properties = PropertyBag::builder()
        .tags(vec![group.clone()])
        .additional_properties([("group".to_string(), Value::String(group))])
        .build();
    ReportingDescriptor::builder()
        .id(rule.slug())
        .short_description(
            MultiformatMessageString::builder()
                .text(rule.summary())
                .build(),
        )
        .full_description(multiformat(about))
        .help(multiformat(doc.trim_end()))
        .default_configuration(config)
        .properties(properties)
        .build()
}

/// Markdown as plain text: paragraphs kept, each on one line, without `**` emphasis.
fn plain(markdown: &str) -> String {
    markdown
        .split("\n\n")
        .map(|p| {
            p.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .replace("**", "")
        })
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The artifact URI of a path: a relative path stays relative, an absolute one becomes a
/// `file://` URI; every byte but RFC 3986's unreserved characters and `/` is
/// percent-encoded (`:` too, so a relative path never reads as a scheme).
pub fn uri(path: &Path) -> String {
    let bytes = path_bytes(path);
    let mut out = String::with_capacity(bytes.len() + 8);
    if path.is_absolute() {
        out.push_str("file://");
        if bytes.first() != Some(&b'/') {
            out.push('/');
        }
    }
    for &b in bytes.iter() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    use std::os::unix::ffi::OsStrExt;
    path.as_os_str().as_bytes().into()
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    path.to_string_lossy()
        .replace('\\', "/")
        .into_bytes()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uri_references_relative_ones_staying_relative() {
        assert_eq!(uri(Path::new("a/b c.jsonl")), "a/b%20c.jsonl");
        assert_eq!(uri(Path::new("./x:y#1%.jsonl")), "./x%3Ay%231%25.jsonl");
        assert_eq!(uri(Path::new("../é.jsonl")), "../%C3%A9.jsonl");
        assert_eq!(uri(Path::new("/tmp/a b")), "file:///tmp/a%20b");
    }

    #[test]
    fn a_finding_is_a_result_at_its_rule_and_span_and_a_whole_file_one_has_no_region() {
        use crate::decode::{Line, Pos};
        use crate::findings::Span;
        let (bom, missing) = (
            crate::rules::file::bom::RULE,
            crate::rules::meta::missing::RULE,
        );
        let codex = Reading::default();
        let mut log = Log::new(vec![bom, missing], codex);
        let line = Line {
            pos: Pos {
                line: 3,
                offset: 120,
            },
            len: 12,
            eol: 1,
            chars: Some(10),
        };
        let file = Source::File("d/f.jsonl".into());
        let span = Some(Span::whole(&line));
        log.push(&Finding::new(bom, file, span, "m".into()), &codex);
        log.push(
            &Finding::new(missing, Source::Stdin, None, "m".into()),
            &codex,
        );
        let v = serde_json::to_value(log.sarif()).unwrap();
        assert_eq!(v["runs"][0]["columnKind"], "unicodeCodePoints");
        let results = &v["runs"][0]["results"];
        assert_eq!(results[0]["ruleId"], "file.bom");
        assert_eq!(results[0]["ruleIndex"], 0);
        assert_eq!(results[0]["level"], "error");
        let loc = &results[0]["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uri"], "d/f.jsonl");
        assert_eq!(
            loc["region"],
            json!({"startLine": 3, "startColumn": 1, "endLine": 3, "endColumn": 11,
                   "byteOffset": 120})
        );
        assert_eq!(results[1]["ruleIndex"], 1);
        let loc = &results[1]["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uri"], STDIN_URI);
        assert!(loc.get("region").is_none(), "{loc}");
    }

    #[test]
    fn rules_are_described_from_the_registry() {
        let rule = crate::rules::compact::legacy::RULE;
        let d = serde_json::to_value(descriptor(rule, &Reading::default())).unwrap();
        assert_eq!(d["id"], "compact.legacy");
        assert_eq!(d["shortDescription"]["text"], rule.summary());
        assert_eq!(d["defaultConfiguration"]["level"], "note");
        assert_eq!(d["properties"]["group"], "compact");
        let full = d["fullDescription"]["text"].as_str().unwrap();
        assert!(
            full.starts_with("Checks. Reports") && !full.contains("Fix."),
            "{full}"
        );
        let help = d["help"]["markdown"].as_str().unwrap();
        assert!(
            help.starts_with("**Checks.**") && help.contains("**Fix.**"),
            "{help}"
        );
    }
}
