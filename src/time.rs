//! Timestamps: parsing rollout times, day and month buckets, and `--since`/`--until` bounds.
//!
//! Rollout timestamps are RFC 3339 UTC (`2026-11-29T12:00:30.628Z`). Buckets and date bounds
//! are in local time unless UTC is asked for, like `--by day`.

use chrono::{DateTime, Local, NaiveDate, TimeZone, Utc};

/// Milliseconds since the epoch of an RFC 3339 timestamp; `None` when it does not parse.
pub fn parse_ms(ts: &str) -> Option<i64> {
    DateTime::parse_from_rfc3339(ts)
        .ok()
        .map(|d| d.timestamp_millis())
}

/// Which clock day and month buckets use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Zone {
    #[default]
    Local,
    Utc,
}

impl Zone {
    /// The calendar day of an instant in this zone.
    pub fn day(self, ms: i64) -> Option<NaiveDate> {
        let utc = Utc.timestamp_millis_opt(ms).single()?;
        Some(match self {
            Zone::Utc => utc.date_naive(),
            Zone::Local => utc.with_timezone(&Local).date_naive(),
        })
    }

    /// The first instant (ms) of a calendar day in this zone.
    fn day_start_ms(self, d: NaiveDate) -> Option<i64> {
        let naive = d.and_hms_opt(0, 0, 0)?;
        Some(match self {
            Zone::Utc => Utc.from_utc_datetime(&naive).timestamp_millis(),
            Zone::Local => Local
                .from_local_datetime(&naive)
                .earliest()?
                .timestamp_millis(),
        })
    }
}

/// One end of a `--since`/`--until` range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bound {
    /// A calendar day, inclusive, in the chosen zone.
    Day(NaiveDate),
    /// An instant.
    Instant(i64),
}

impl Bound {
    /// Parse `YYYY-MM-DD` or an RFC 3339 time.
    pub fn parse(s: &str) -> Result<Bound, String> {
        if let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d") {
            return Ok(Bound::Day(d));
        }
        parse_ms(s)
            .map(Bound::Instant)
            .ok_or_else(|| format!("`{s}` is neither a date (YYYY-MM-DD) nor an RFC 3339 time"))
    }
}

/// A session start filter.
#[derive(Debug, Clone, Default)]
pub struct Range {
    pub since: Option<Bound>,
    pub until: Option<Bound>,
    pub zone: Zone,
}

impl Range {
    pub fn is_open(&self) -> bool {
        self.since.is_none() && self.until.is_none()
    }

    /// Does a session starting at `ms` fall in the range? A session with no known start
    /// is kept only when the range is open.
    pub fn contains(&self, ms: Option<i64>) -> bool {
        if self.is_open() {
            return true;
        }
        let Some(ms) = ms else { return false };
        if let Some(lo) = &self.since {
            let lo_ms = match lo {
                Bound::Instant(t) => Some(*t),
                Bound::Day(d) => self.zone.day_start_ms(*d),
            };
            if lo_ms.is_some_and(|lo| ms < lo) {
                return false;
            }
        }
        if let Some(hi) = &self.until {
            match hi {
                Bound::Instant(t) => {
                    if ms > *t {
                        return false;
                    }
                }
                Bound::Day(d) => {
                    let next = d.succ_opt().and_then(|n| self.zone.day_start_ms(n));
                    if next.is_some_and(|n| ms >= n) {
                        return false;
                    }
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_codex_timestamps() {
        assert_eq!(parse_ms("1970-01-01T00:00:01.500Z"), Some(1500));
        assert_eq!(parse_ms("yesterday"), None);
    }

    #[test]
    fn until_day_is_inclusive_in_utc() {
        let r = Range {
            since: Some(Bound::parse("2026-11-29").unwrap()),
            until: Some(Bound::parse("2026-11-29").unwrap()),
            zone: Zone::Utc,
        };
        assert!(r.contains(parse_ms("2026-11-29T00:00:00Z")));
        assert!(r.contains(parse_ms("2026-11-29T23:59:59.999Z")));
        assert!(!r.contains(parse_ms("2026-11-30T00:00:00Z")));
        assert!(!r.contains(parse_ms("2026-11-28T23:59:59Z")));
        assert!(!r.contains(None));
    }

    #[test]
    fn instant_bounds() {
        let r = Range {
            since: Some(Bound::parse("2026-11-29T12:00:00Z").unwrap()),
            until: None,
            zone: Zone::Local,
        };
        assert!(!r.contains(parse_ms("2026-11-29T11:59:59Z")));
        assert!(r.contains(parse_ms("2026-11-29T12:00:00Z")));
        assert!(Bound::parse("29/11/2026").is_err());
    }
}
