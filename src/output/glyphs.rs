//! Unicode or ASCII: what the locale can show. Table borders, bars, status marks and the
//! mark of a cut are Unicode when the locale's character set is UTF-8, ASCII otherwise
//! (`LC_ALL`, else `LC_CTYPE`, else `LANG`, as POSIX orders them; unset means the `C`
//! locale, which is ASCII). NDJSON and JSON never carry any of them.

use std::sync::OnceLock;

/// Can the terminal show Unicode? Decided once per run from the environment.
pub fn unicode() -> bool {
    static UNICODE: OnceLock<bool> = OnceLock::new();
    *UNICODE.get_or_init(|| {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let locale = var("LC_ALL")
            .or_else(|| var("LC_CTYPE"))
            .or_else(|| var("LANG"));
        match locale {
            Some(l) => is_utf8_locale(&l),
            // Windows consoles and terminals show Unicode without a locale variable.
            None => cfg!(windows),
        }
    })
}

/// `en_US.UTF-8`, `C.utf8`, `de_DE.UTF-8@euro`: a UTF-8 character set.
fn is_utf8_locale(l: &str) -> bool {
    let l = l.to_ascii_lowercase();
    l.contains("utf-8") || l.contains("utf8")
}

/// The mark of a cut.
pub fn ellipsis(unicode: bool) -> &'static str {
    if unicode {
        "…"
    } else {
        "..."
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_locales_are_told_from_the_others() {
        assert!(is_utf8_locale("en_US.UTF-8"));
        assert!(is_utf8_locale("C.utf8"));
        assert!(is_utf8_locale("de_DE.UTF-8@euro"));
        assert!(!is_utf8_locale("C"));
        assert!(!is_utf8_locale("POSIX"));
        assert!(!is_utf8_locale("en_US.ISO-8859-1"));
    }
}
