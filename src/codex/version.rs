//! A Codex version as `cli_version` writes it (`0.171.0`, `0.153.4`, `0.172.0-alpha.3`), and
//! the order the table's ranges are read in.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// A Codex version: three numbers, and what followed them (a pre-release), kept for display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    /// A pre-release (`0.172.0-alpha.3`) orders before its release, as semver has it.
    pub pre: bool,
}

impl Version {
    pub const fn new(major: u64, minor: u64, patch: u64) -> Version {
        Version {
            major,
            minor,
            patch,
            pre: false,
        }
    }

    fn key(&self) -> (u64, u64, u64, bool) {
        (self.major, self.minor, self.patch, !self.pre)
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Version) -> Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Version) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if self.pre {
            f.write_str("-pre")?;
        }
        Ok(())
    }
}

/// Why a string is not a version.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a Codex version (expected MAJOR.MINOR[.PATCH], such as 0.171.0)")]
pub struct BadVersion(pub String);

impl FromStr for Version {
    type Err = BadVersion;

    /// `0.171.0`, `0.171` (patch 0), `v0.171.0`, `rust-v0.171.0` (upstream's tags), with a
    /// pre-release or build suffix (`-alpha.3`, `+abc`) read as a pre-release or ignored.
    fn from_str(s: &str) -> Result<Version, BadVersion> {
        let bad = || BadVersion(s.to_string());
        let t = s.trim();
        let t = t.strip_prefix("rust-").unwrap_or(t);
        let t = t.strip_prefix(['v', 'V']).unwrap_or(t);
        let (t, _build) = t.split_once('+').unwrap_or((t, ""));
        let (core, pre) = match t.split_once('-') {
            Some((core, pre)) if !pre.is_empty() => (core, true),
            Some(_) => return Err(bad()),
            None => (t, false),
        };
        let mut nums = core.split('.').map(|p| {
            (!p.is_empty() && p.len() <= 19 && p.bytes().all(|b| b.is_ascii_digit()))
                .then(|| p.parse::<u64>().ok())
                .flatten()
        });
        let major = nums.next().flatten().ok_or_else(bad)?;
        let minor = nums.next().flatten().ok_or_else(bad)?;
        let patch = match nums.next() {
            None => 0,
            Some(p) => p.ok_or_else(bad)?,
        };
        if nums.next().is_some() {
            return Err(bad());
        }
        Ok(Version {
            major,
            minor,
            patch,
            pre,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        s.parse().unwrap()
    }

    #[test]
    fn versions_parse_as_codex_writes_and_tags_them() {
        assert_eq!(v("0.171.0"), Version::new(0, 171, 0));
        assert_eq!(v("0.153"), Version::new(0, 153, 0));
        assert_eq!(v("rust-v0.153.4"), Version::new(0, 153, 4));
        assert_eq!(v("v1.2.3+build"), Version::new(1, 2, 3));
        assert!(v("0.172.0-alpha.3").pre);
        for bad in ["", "0", "x.1", "0.1.2.3", "0..1", "0.1-", "0.-1", "١.٢"] {
            assert!(bad.parse::<Version>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_pre_release_orders_before_its_release_and_after_the_one_before() {
        assert!(v("0.172.0-alpha.3") < v("0.172.0"));
        assert!(v("0.171.9") < v("0.172.0-alpha.3"));
        assert!(v("0.9.0") < v("0.10.0"));
        assert_eq!(v("0.172.0-alpha.3").to_string(), "0.172.0-pre");
    }
}
