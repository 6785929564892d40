//! What a person reads a tool call for: its command, not its JSON arguments. One piece of
//! code for every table that shows a call (`calls`' `arguments`, `replay`'s transcript).

use serde_json::Value;

/// The command of a call's arguments: a shell call's command line (`cmd` or `command` of
/// its JSON arguments, a string or an argv: the script of `sh -c SCRIPT`, else the argv
/// joined); a patch's files (`patch a.txt, b.txt`); else the arguments as
/// written.
pub fn command(args: &str) -> String {
    if let Some(files) = patch_files(args) {
        return files;
    }
    let Ok(Value::Object(o)) = serde_json::from_str::<Value>(args) else {
        return args.to_string();
    };
    match o.get("cmd").or_else(|| o.get("command")) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(argv)) => {
            let parts: Vec<&str> = argv.iter().filter_map(Value::as_str).collect();
            match parts.as_slice() {
                // `bash -lc SCRIPT`: the script.
                [_, flag, script] if flag.starts_with('-') && flag.ends_with('c') => {
                    script.to_string()
                }
                _ => parts.join(" "),
            }
        }
        // A patch sent as JSON (`{"input": "*** Begin Patch…"}`).
        _ => match o.get("input").and_then(Value::as_str).and_then(patch_files) {
            Some(files) => files,
            None => args.to_string(),
        },
    }
}

/// `patch a.txt, b.txt`: the files an `apply_patch` text adds, updates or deletes.
fn patch_files(text: &str) -> Option<String> {
    if !text.trim_start().starts_with("*** Begin Patch") {
        return None;
    }
    let files: Vec<&str> = text
        .lines()
        .filter_map(|l| {
            ["*** Add File: ", "*** Update File: ", "*** Delete File: "]
                .iter()
                .find_map(|p| l.strip_prefix(p))
        })
        .map(str::trim)
        .collect();
    Some(format!("patch {}", files.join(", ")).trim_end().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_shows_its_command() {
        assert_eq!(
            command(r#"{"command": ["bash", "-lc", "cat x"], "workdir": "/w"}"#),
            "cat x"
        );
        assert_eq!(command(r#"{"command": ["ls", "-la", "/"]}"#), "ls -la /");
        assert_eq!(command(r#"{"cmd": "ls -la"}"#), "ls -la");
        assert_eq!(
            command("*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: b/c.rs\n"),
            "patch a.txt, b/c.rs"
        );
        assert_eq!(command("*** Begin Patch\n*** End Patch"), "patch");
        assert_eq!(
            command(r#"{"input": "*** Begin Patch\n*** Delete File: z\n"}"#),
            "patch z"
        );
        assert_eq!(command(r#"{"city": "Paris"}"#), r#"{"city": "Paris"}"#);
        assert_eq!(command("free text"), "free text");
    }
}
