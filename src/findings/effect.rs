//! What a defect does when Codex resumes the file: the effect a finding's severity follows
//! (`docs/codex-versions.md`), and what a file's outcome is made of.

use serde::Serialize;

use super::Severity;

/// What the defect a finding is about does on resume, under the Codex version the file was
/// read as. Ordered from harmless to worst.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Nothing Codex does changes.
    Nothing,
    /// Codex warns, or skips something that does not change the history.
    Warns,
    /// The model gets everything; a client is shown less than was written.
    ClientPartial,
    /// The model gets everything; a client's view of the thread stops there for good.
    ClientStuck,
    /// The resume goes through, but loses what the user or the model wrote (lines
    /// skipped, items dropped or replaced).
    Loses,
    /// Codex refuses to resume the file.
    Refused,
}

impl Effect {
    /// The severity that follows: error when the resume is refused or loses history,
    /// warning when Codex warns or a client's view is partial or stuck, info otherwise.
    pub fn severity(self) -> Severity {
        match self {
            Effect::Refused | Effect::Loses => Severity::Error,
            Effect::ClientStuck | Effect::ClientPartial | Effect::Warns => Severity::Warning,
            Effect::Nothing => Severity::Info,
        }
    }

    /// Its name in every format.
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Nothing => "nothing",
            Effect::Warns => "warns",
            Effect::ClientPartial => "client_partial",
            Effect::ClientStuck => "client_stuck",
            Effect::Loses => "loses",
            Effect::Refused => "refused",
        }
    }
}

/// What a resume of the file does, as its findings' effects say: what the model is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Resumes,
    ResumesWithLoss,
    Refused,
}

/// What a client is shown of the thread on resume.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientView {
    Complete,
    Partial,
    Stuck,
}

impl Outcome {
    /// The worst of `effects`.
    pub fn of(effects: impl IntoIterator<Item = Effect>) -> (Outcome, Option<ClientView>) {
        let (mut model, mut client) = (Outcome::Resumes, ClientView::Complete);
        for e in effects {
            match e {
                Effect::Refused => model = Outcome::Refused,
                Effect::Loses if model != Outcome::Refused => model = Outcome::ResumesWithLoss,
                Effect::ClientStuck => client = ClientView::Stuck,
                Effect::ClientPartial if client != ClientView::Stuck => {
                    client = ClientView::Partial;
                }
                _ => {}
            }
        }
        // A refused thread shows nothing through a resume.
        (model, (model != Outcome::Refused).then_some(client))
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Resumes => "resumes",
            Outcome::ResumesWithLoss => "resumes_with_loss",
            Outcome::Refused => "refused",
        }
    }
}

impl ClientView {
    pub fn as_str(self) -> &'static str {
        match self {
            ClientView::Complete => "complete",
            ClientView::Partial => "partial",
            ClientView::Stuck => "stuck",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outcome_is_the_worst_effect_and_the_client_view_its_own_axis() {
        use Effect::*;
        assert_eq!(
            Outcome::of([]),
            (Outcome::Resumes, Some(ClientView::Complete))
        );
        assert_eq!(
            Outcome::of([Warns, ClientStuck, ClientPartial]),
            (Outcome::Resumes, Some(ClientView::Stuck))
        );
        assert_eq!(
            Outcome::of([Loses, ClientPartial]),
            (Outcome::ResumesWithLoss, Some(ClientView::Partial))
        );
        assert_eq!(Outcome::of([Refused, Loses]), (Outcome::Refused, None));
        assert_eq!(Outcome::of([Loses, Refused]).0, Outcome::Refused);
        assert_eq!(ClientStuck.severity(), Severity::Warning);
        assert_eq!(Nothing.severity(), Severity::Info);
    }
}
