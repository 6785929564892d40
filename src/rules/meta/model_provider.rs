//! `meta.model-provider`: a session without its model provider.

use crate::decode::{Kind, Record};
use crate::rules::{Found, Hook, Kinds, RecordCx, Stage, Unit};

rule! {
    /// **Checks.** `session_meta.model_provider`, when written, is not null or empty.
    ///
    /// **Why it matters.** The session's provider is lost: Codex resumes it on whatever
    /// the user's config names. Verified with a config naming no provider: 0.128 and 0.147
    /// take the config's default for any file; 0.171, which keeps a thread on the provider
    /// its file names (and refuses to switch a `mock` thread to `openai`), runs a null one
    /// on the default provider. Without a usable default provider the resume fails ("Model
    /// provider not found").
    ///
    /// **Example.** `"model_provider": null`.
    ///
    /// **Fix.** Write the provider the session ran with.
    "meta.model-provider", Warning, "session_meta.model_provider is null or empty",
    effect: Warns,
}

pub const UNIT: Unit = Unit::new(
    RULE,
    &[Hook::record(
        Stage::MetaProvider,
        Kinds::of(&[Kind::SessionMeta]),
        check,
    )],
);

fn check(rec: &Record<'_>, cx: &RecordCx<'_>, out: &mut Found<'_>) {
    if !cx.is_first_meta(rec) {
        return;
    }
    if let Some("null" | "\"\"") = rec.payload_field("model_provider") {
        out.push_rec(
            rec,
            "session_meta.model_provider is null or empty: the resume fails (\"Model provider \
             not found\") unless the config names one"
                .to_string(),
        );
    }
}
