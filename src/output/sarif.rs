//! `--format sarif`: one SARIF 2.1.0 log for the whole run, built with `serde-sarif`'s
//! typed model and written once the run ends, for GitHub code scanning and the tools that
//! read SARIF. The driver's rules are the rules the run reports, in registry order,
//! described from the registry; each finding is one result pointing at its rule by id and
//! index, located at its file and span, and fingerprinted by what its line holds.
//!
//! - Files are named relative to the run's root (`%SRCROOT%`, given in
//!   `originalUriBaseIds`); a file outside it by an absolute `file://` URI.
//! - Every result has a region: its span's start and end, or line 1 for a finding about the
//!   whole file. Columns count Unicode scalar values (`columnKind`).
//! - A compressed file is two artifacts: the `.zst`, and the stream it decompresses to,
//!   nested in it (`parentIndex`); lines and offsets count in the stream, so its results
//!   point at the nested artifact.
//! - `partialFingerprints` (`rollscope/v1`): the rule, the file, the digest of the line the
//!   finding starts on and its occurrence among the file's findings of that rule on
//!   identical lines (rule, file and the row a database finding is about, for one about the
//!   whole file): the same across runs and when lines move.
//! - Inputs that could not be read are the invocation's notifications, and make it
//!   unsuccessful.

use std::collections::{BTreeMap, HashMap};
use std::io;
use std::path::Path;

use serde_json::{json, Value};
use serde_sarif::sarif::{
    Artifact, ArtifactLocation, Invocation, Location, LogicalLocation, Message,
    MultiformatMessageString, Notification, PhysicalLocation, PropertyBag, Region,
    ReportingConfiguration, ReportingDescriptor, Result as SarifResult, ResultColumnKind,
    ResultLevel, Run, Sarif, Tool, ToolComponent,
};
use sha2::{Digest, Sha256};

use super::jq::{Filtered, Jq};
use super::root::{Place, Root};
use super::rules::doc_markdown;
use super::ColorWhen;
use crate::codex::Reading;
use crate::findings::{Finding, Rule, Severity};
use crate::input::{InputError, Source};
use crate::rules::SECTIONS;

/// The published SARIF 2.1.0 schema (OASIS, errata 01).
const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The artifact URI of standard input (`-`): the stream's name on Unix.
pub const STDIN_URI: &str = "file:///dev/stdin";

/// The base id of the paths relative to the run's root (GitHub's name for a checkout).
pub const SRCROOT: &str = "%SRCROOT%";

/// The name of rollscope's fingerprint among a result's `partialFingerprints`.
pub const FINGERPRINT: &str = "rollscope/v1";

/// The run's log, filled one finding at a time.
pub struct Log {
    rules: Vec<Rule>,
    results: Vec<SarifResult>,
    /// The Codex version the rules' default levels are given for (the run's; the newest
    /// for `--codex file`).
    codex: Reading,
    root: Root,
    /// The artifacts listed: the compressed files and their streams.
    artifacts: Vec<Artifact>,
    /// Per compressed file, the index of its stream's artifact.
    nested: HashMap<Source, i64>,
    /// Per file, whether it is compressed (looked at once).
    compressed: HashMap<Source, bool>,
    /// How many results had each fingerprint's key so far.
    seen: HashMap<[u8; 32], u64>,
    /// The inputs that could not be read.
    notifications: Vec<Notification>,
    /// `--jq`'s filter, and the color of its errors.
    jq: Option<(Jq, ColorWhen)>,
}

impl Log {
    /// A log whose driver describes `rules` (the rules the run reports), its paths relative
    /// to `root`.
    pub fn new(rules: Vec<Rule>, codex: Reading, root: Root) -> Log {
        Log {
            rules,
            results: Vec::new(),
            codex,
            root,
            artifacts: Vec::new(),
            nested: HashMap::new(),
            compressed: HashMap::new(),
            seen: HashMap::new(),
            notifications: Vec::new(),
            jq: None,
        }
    }

    /// One finding, in a file read as `codex`.
    pub fn push(&mut self, f: &Finding, codex: &Reading) {
        let artifact = self.artifact_of(&f.file);
        let region = region(f);
        let physical = PhysicalLocation {
            artifact_location: Some(artifact),
            region: Some(region),
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
        let fingerprint = self.fingerprint(f);
        let mut result = SarifResult::builder()
            .rule_id(f.rule.slug())
            .level(level(f.severity))
            .message(text(&f.message))
            .locations(vec![location])
            .properties(result_properties(f, codex))
            .build();
        result.partial_fingerprints =
            Some(BTreeMap::from([(FINGERPRINT.to_string(), fingerprint)]));
        result.rule_index = self
            .rules
            .iter()
            .position(|&r| r == f.rule)
            .map(|i| i as i64);
        self.results.push(result);
    }

    /// The inputs that could not be read (or held nothing to read), in the order met: the
    /// invocation's notifications.
    pub fn problems(&mut self, problems: &[InputError]) {
        for p in problems {
            let path = Path::new(&p.path);
            let source = if p.path == "-" {
                Source::Stdin
            } else {
                Source::File(path.to_path_buf())
            };
            let physical = PhysicalLocation {
                artifact_location: Some(self.location_of(&source)),
                ..PhysicalLocation::default()
            };
            let mut n = Notification::builder()
                .message(text(&p.cause))
                .locations(vec![Location::builder()
                    .physical_location(physical)
                    .build()])
                .build();
            n.level = Some(json!("error"));
            self.notifications.push(n);
        }
    }

    /// Where a finding in `source` lies: the file, or for a compressed one the stream it
    /// decompresses to, nested in it.
    fn artifact_of(&mut self, source: &Source) -> ArtifactLocation {
        let compressed = *self
            .compressed
            .entry(source.clone())
            .or_insert_with(|| crate::input::is_compressed(source));
        if !compressed {
            return self.location_of(source);
        }
        let index = match self.nested.get(source) {
            Some(&i) => i,
            None => {
                let parent = self.location_of(source);
                let parent_index = self.artifacts.len() as i64;
                let mut zst = Artifact::builder().location(parent).build();
                zst.mime_type = Some("application/zstd".to_string());
                zst.roles = Some(vec![json!("analysisTarget")]);
                self.artifacts.push(zst);
                let mut stream = Artifact::builder()
                    .location(
                        ArtifactLocation::builder()
                            .uri(encode(stream_name(source).as_bytes()))
                            .build(),
                    )
                    .build();
                stream.parent_index = Some(parent_index);
                stream.mime_type = Some("application/jsonl".to_string());
                let index = self.artifacts.len() as i64;
                self.artifacts.push(stream);
                self.nested.insert(source.clone(), index);
                index
            }
        };
        let uri = self
            .artifacts
            .get(index as usize)
            .and_then(|a| a.location.as_ref())
            .and_then(|l| l.uri.clone());
        ArtifactLocation {
            uri,
            index: Some(index),
            ..ArtifactLocation::default()
        }
    }

    /// A file's location: relative to the root, else absolute.
    fn location_of(&self, source: &Source) -> ArtifactLocation {
        let mut at = ArtifactLocation::default();
        match self.root.place(source) {
            Place::Inside(rel) => {
                at.uri = Some(encode(rel.as_bytes()));
                at.uri_base_id = Some(SRCROOT.to_string());
            }
            Place::Outside(abs) => at.uri = Some(uri(&abs)),
            Place::Stdin => {
                at.uri = Some(STDIN_URI.to_string());
                at.description = Some(text("standard input"));
            }
        }
        at
    }

    /// A finding's fingerprint: what it is and what its line holds, then its occurrence
    /// among the findings alike in all that.
    fn fingerprint(&mut self, f: &Finding) -> String {
        let mut key = Sha256::new();
        let file = match self.root.place(&f.file) {
            Place::Inside(rel) => format!("{SRCROOT}/{rel}"),
            Place::Outside(abs) => uri(&abs),
            Place::Stdin => STDIN_URI.to_string(),
        };
        let what = match (f.digest, f.span) {
            (Some(d), _) => hex(&d),
            // A line that cannot be read again (standard input): by its number.
            (None, Some(s)) => format!("line {}", s.start_line),
            (None, None) => "file".to_string(),
        };
        for part in [
            f.rule.slug(),
            &file,
            &what,
            f.logical.as_deref().unwrap_or(""),
        ] {
            key.update(part.as_bytes());
            key.update([0]);
        }
        let key: [u8; 32] = key.finalize().into();
        let seen = self.seen.entry(key).or_insert(0);
        let nth = *seen;
        *seen += 1;
        let mut print = Sha256::new();
        print.update(key);
        print.update(nth.to_le_bytes());
        let print: [u8; 32] = print.finalize().into();
        hex(&print[..16])
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
        let mut invocation = Invocation::builder()
            .execution_successful(self.notifications.is_empty())
            .build();
        if !self.notifications.is_empty() {
            invocation.tool_execution_notifications = Some(self.notifications);
        }
        let mut run = Run::builder()
            .tool(Tool::builder().driver(driver).build())
            .results(self.results)
            .invocations(vec![invocation])
            .build();
        if !self.artifacts.is_empty() {
            run.artifacts = Some(self.artifacts);
        }
        let mut root = ArtifactLocation::default();
        root.uri = Some(dir_uri(self.root.dir()));
        root.description = Some(text(
            "the directory the run's paths are relative to (--root)",
        ));
        run.original_uri_base_ids = Some(BTreeMap::from([(SRCROOT.to_string(), root)]));
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

    /// The log through `jq` when one is given (`--jq`): the whole log is its one input,
    /// its errors said in `color`.
    pub fn filtered(mut self, jq: Option<&Jq>, color: ColorWhen) -> Log {
        self.jq = jq.map(|jq| (jq.clone(), color));
        self
    }

    /// Write the log to stdout, indented, with a final newline; or what `--jq` makes of it.
    pub fn finish(mut self) -> io::Result<()> {
        if let Some((jq, color)) = self.jq.take() {
            let w = io::BufWriter::new(super::row_stdout());
            let mut f = Filtered::new(jq, w, false, color);
            f.input(&self.sarif())?;
            return f.flush();
        }
        let mut bytes = serde_json::to_vec_pretty(&self.sarif())?;
        bytes.push(b'\n');
        super::raw(&bytes)
    }
}

/// Where a finding lies: its span (start and end, in lines, columns and bytes), or line 1
/// for a finding about the whole file.
fn region(f: &Finding) -> Region {
    match f.span {
        Some(s) => {
            let mut r = Region::builder()
                .start_line(s.start_line as i64)
                .start_column(s.start_column as i64)
                .end_line(s.end_line as i64)
                .byte_offset(s.start as i64)
                .byte_length(s.end.saturating_sub(s.start) as i64)
                .build();
            // Absent: the end of the line, as SARIF reads it.
            r.end_column = s.end_column.map(|c| c as i64);
            r
        }
        None => Region::builder().start_line(1).build(),
    }
}

/// The name of the stream a compressed file decompresses to: its own without `.zst`.
fn stream_name(source: &Source) -> String {
    let name = source
        .path()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match name.strip_suffix(".zst") {
        Some(stem) => stem.to_string(),
        None => format!("{name}.decompressed"),
    }
}

/// Lowercase hexadecimal.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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

/// The artifact URI of an absolute path (a `file://` URI), or a relative one (a relative
/// reference); every byte but RFC 3986's unreserved characters and `/` is percent-encoded
/// (`:` too, so a relative path never reads as a scheme).
pub fn uri(path: &Path) -> String {
    let bytes = path_bytes(path);
    if !path.is_absolute() {
        return encode(&bytes);
    }
    let slash = if bytes.first() == Some(&b'/') {
        ""
    } else {
        "/"
    };
    format!("file://{slash}{}", encode(&bytes))
}

/// A directory's `file://` URI, ending in `/` (what a base URI must end with).
fn dir_uri(dir: &Path) -> String {
    let u = uri(dir);
    if u.ends_with('/') {
        u
    } else {
        u + "/"
    }
}

/// Percent-encoding of a path's bytes.
fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 8);
    for &b in bytes {
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
        assert_eq!(uri(Path::new("x:y#1%.jsonl")), "x%3Ay%231%25.jsonl");
        assert_eq!(uri(Path::new("../é.jsonl")), "../%C3%A9.jsonl");
        assert_eq!(uri(Path::new("/tmp/a b")), "file:///tmp/a%20b");
    }

    #[test]
    fn a_finding_is_a_result_at_its_rule_and_span_and_a_whole_file_one_at_line_1() {
        use crate::decode::{Line, Pos};
        use crate::findings::Span;
        let (bom, missing) = (
            crate::rules::file::bom::RULE,
            crate::rules::meta::missing::RULE,
        );
        let codex = Reading::default();
        let root = Root::new(Some(Path::new("/repo")));
        let mut log = Log::new(vec![bom, missing], codex, root);
        let line = Line {
            pos: Pos {
                line: 3,
                offset: 120,
            },
            len: 12,
            eol: 1,
            chars: Some(10),
        };
        let file = Source::File("/repo/d/f.jsonl".into());
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
        assert_eq!(
            loc["artifactLocation"],
            json!({"uri": "d/f.jsonl", "uriBaseId": "%SRCROOT%"})
        );
        assert_eq!(
            loc["region"],
            json!({"startLine": 3, "startColumn": 1, "endLine": 3, "endColumn": 11,
                   "byteOffset": 120, "byteLength": 12})
        );
        assert_eq!(
            v["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"],
            "file:///repo/"
        );
        let print = &results[0]["partialFingerprints"]["rollscope/v1"];
        assert_eq!(print.as_str().map(str::len), Some(32), "{print}");
        assert_eq!(results[1]["ruleIndex"], 1);
        let loc = &results[1]["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uri"], STDIN_URI);
        assert_eq!(loc["region"], json!({"startLine": 1}));
        assert_eq!(v["runs"][0]["invocations"][0]["executionSuccessful"], true);
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
