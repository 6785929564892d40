//! What several rules' messages share: how a number, a size, a name written in a file and a
//! place searched are worded.

use crate::lineage::{Boundary, Place};

/// A number, or `none`.
pub fn num(n: Option<u64>) -> String {
    n.map_or_else(|| "none".to_string(), |n| n.to_string())
}

/// The ordinal due next, which does not exist past `u64::MAX`.
pub fn due(n: Option<u64>) -> String {
    n.map_or_else(|| "none (overflow)".to_string(), |n| n.to_string())
}

/// A name as written in a file, cut for a message.
pub fn short(s: &str) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(MAX).collect();
        t.push('…');
        t
    }
}

/// A byte count as people read it: `812 B`, `3.4 MiB`, `1.2 GiB`.
pub fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut v = bytes as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    let unit = UNITS.get(unit).copied().unwrap_or("TiB");
    format!("{v:.1} {unit}")
}

/// Where a cutoff's boundary lies in its source, in words.
pub fn boundary(b: &Boundary) -> String {
    match b.first_at_end {
        Some(line) => format!(
            "the byte offset of its first record with ordinal >= {} (line {line})",
            b.end_ordinal
        ),
        None => format!(
            "the end of the source: no record there has ordinal >= {}",
            b.end_ordinal
        ),
    }
}

/// A place searched for a lineage source.
pub fn place(p: &Place) -> String {
    match p {
        Place::GivenInputs => "the given inputs".to_string(),
        Place::Dir(d) => d.display().to_string(),
        Place::EmptyHome(h) => format!("{} (no sessions or archived_sessions there)", h.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_names_read_as_people_read_them() {
        assert_eq!(size(812), "812 B");
        assert_eq!(size(3 << 20), "3.0 MiB");
        assert_eq!(short(&"x".repeat(61)).chars().count(), 61);
        assert_eq!(
            (num(None), due(None)),
            ("none".into(), "none (overflow)".into())
        );
    }
}
