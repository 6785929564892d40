//! `content.secret`: a string that looks like a credential.

use crate::content::secrets;
use crate::decode::Record;
use crate::rules::words::short;
use crate::rules::{Found, Hook, Kinds, RecordCx, Stage, Unit};

rule! {
    /// **Checks.** No string of the rollout (messages, reasoning summaries, tool arguments
    /// and output, instructions) looks like a credential: API keys of OpenAI, Anthropic,
    /// AWS (access key ids), GitHub, GitLab, Slack, Stripe and Google; bearer tokens; private
    /// key blocks; JWTs; passwords in URLs. Strings are read decoded (JSON escapes cannot
    /// hide a key), tool arguments as the JSON they hold. The patterns follow gitleaks'
    /// and detect-secrets' rules. Findings show a redacted excerpt, never the secret.
    ///
    /// **Why it matters.** A rollout keeps everything the session saw, verbatim: a key
    /// printed by `env` or pasted into a prompt travels with every copy of the file, into bug
    /// reports and shared transcripts.
    ///
    /// **Example.** A tool output of `cat .env` holding `OPENAI_API_KEY=sk-proj-…`.
    ///
    /// **Fix.** Rotate the credential, then redact it in the file before sharing it.
    "content.secret", Warning, "a string that looks like a credential",
}

pub const UNIT: Unit = Unit::new(
    RULE,
    &[Hook::record(Stage::ContentSecret, Kinds::ALL, check)],
)
.lint_only();

fn check(rec: &Record<'_>, cx: &RecordCx<'_>, out: &mut Found<'_>) {
    for s in secrets::check(rec, cx.seen(rec)) {
        out.push_rec(
            rec,
            format!(
                "{} in {} ({}): redact it before sharing this file, and rotate it",
                s.kind,
                short(&s.field),
                s.redacted
            ),
        );
    }
}
